import { expect } from 'chai';
import { renderMarkdown } from '../../src/web/render/markdown';
import { highlightCode } from '../../src/web/render/highlight';

/** Model output reaches the page as HTML only through these two: neither may let markup through. */
describe('the page renders model text safely', () => {
  it('Markdown: formatting is rendered, HTML the model writes is shown as text', () => {
    const html = renderMarkdown('**bold** <script>alert(1)</script> <img src=x onerror="alert(1)"> `a<b`');
    expect(html).to.contain('<strong>bold</strong>');
    expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).to.contain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).to.contain('<code>a&lt;b</code>');
    expect(html).not.to.match(/<(script|img)/);
  });

  it('Markdown: script URLs are not links; real links open in a new tab without opener or referrer', () => {
    const html = renderMarkdown('[x](javascript:alert(1)) [y](vbscript:msgbox) [z](https://example.com/a)');
    expect(html).not.to.contain('href="javascript:');
    expect(html).not.to.contain('href="vbscript:');
    expect(html).to.contain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">z</a>');
  });

  it('code blocks and file previews are highlighted, with the code escaped', () => {
    const html = renderMarkdown('```ts\nconst a: string = "<b>";\n```');
    expect(html).to.contain('hljs-keyword');
    expect(html).to.contain('&lt;b&gt;');
    expect(highlightCode('<div onclick="x()">', undefined)).to.equal('&#60;div onclick=&#34;x()&#34;&#62;');
  });
});
