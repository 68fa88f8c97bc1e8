import { X } from 'lucide-preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { answerOf, client, messageOf } from '../api/http';
import type { ReadFileResult } from '../api/types';
import { highlightCode, languageOfPath } from '../render/highlight';
import { preview } from '../state/quickOpen';
import { FileIcon } from './icons/FileIcon';

/**
 * A read-only, syntax-highlighted view of the file quick-open chose (`POST /files/read`), with line numbers.
 * It sits beside the conversation (below it in a narrow window), never over the transcript or the prompt box:
 * a file is read while the thread goes on (issue 29).
 */
export function FilePreview() {
  const shown = preview.value;
  const [file, setFile] = useState<ReadFileResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!shown) return;
    setFile(null);
    setError(null);
    const absolute = `${shown.project.source.path.replace(/\/$/, '')}/${shown.path}`;
    answerOf(client.POST('/api/v1/files/read', { body: { hostId: shown.project.source.hostId, path: absolute } })).then(
      setFile,
      (failure: unknown) => setError(messageOf(failure)),
    );
    region.current?.focus();
  }, [shown]);

  const html = useMemo(
    () => (file?.encoding === 'utf8' && shown ? highlightCode(file.content, languageOfPath(shown.path)) : ''),
    [file, shown],
  );
  if (!shown) return null;
  const language = languageOfPath(shown.path);
  const name = shown.path.slice(shown.path.lastIndexOf('/') + 1);
  return (
    <section
      class="file-preview"
      role="region"
      aria-label="File preview"
      tabIndex={-1}
      ref={region}
      onKeyDown={(event) => event.key === 'Escape' && (preview.value = null)}
    >
      <header class="preview-head">
        <FileIcon name={name} />
        <h2 class="preview-title" title={shown.path}>
          <code>{shown.path}</code>
        </h2>
        <span class="muted preview-meta">{file ? `${file.sizeBytes.toLocaleString()} bytes${language ? ` · ${language}` : ''}` : ''}</span>
        <button
          type="button"
          class="icon-button"
          onClick={() => (preview.value = null)}
          aria-label="Close preview"
          title="Close preview (Esc)"
        >
          <X size={18} aria-hidden="true" />
        </button>
      </header>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {file && file.encoding === 'base64' && <p class="muted">A binary file ({file.sizeBytes.toLocaleString()} bytes): not shown.</p>}
      {file && file.encoding === 'utf8' && (
        <div class="preview-body">
          <pre class="line-numbers" aria-hidden="true">
            {lineNumbers(file.content)}
          </pre>
          <pre class="code">
            <code class={`hljs${language ? ` language-${language}` : ''}`} dangerouslySetInnerHTML={{ __html: html }} />
          </pre>
        </div>
      )}
      {!file && !error && <p class="muted">Loading…</p>}
    </section>
  );
}

/** "1\n2\n…" for each line of `text` (a last newline ends a line; it starts none), beside the code in the same font. */
function lineNumbers(text: string): string {
  const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return Array.from({ length: Math.max(1, count) }, (_, index) => index + 1).join('\n');
}
