import MarkdownIt from 'markdown-it';
import { highlightCode } from './highlight';

/**
 * Model output as Markdown, rendered safely: `html: false` makes markdown-it escape every tag the model
 * writes (no HTML injection), its link check refuses `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs, and links open in a new tab without a referrer or opener.
 */
const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight: (code, language) => highlightCode(code, language),
});

const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet('target', '_blank');
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
