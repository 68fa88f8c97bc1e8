import { useEffect, useRef, useState } from 'preact/hooks';
import { answerOf, client, messageOf } from '../api/http';
import type { ReadFileResult } from '../api/types';
import { highlightCode, languageOfPath } from '../render/highlight';
import { preview } from '../state/quickOpen';

/** A read-only, syntax-highlighted view of the file quick-open chose (`POST /files/read`). */
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

  if (!shown) return null;
  const language = languageOfPath(shown.path);
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
        <h2 class="preview-title">
          <code>{shown.path}</code>
        </h2>
        <span class="muted">{file ? `${file.sizeBytes.toLocaleString()} bytes${language ? ` · ${language}` : ''}` : ''}</span>
        <button type="button" class="small" onClick={() => (preview.value = null)}>
          Close preview
        </button>
      </header>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {file && file.encoding === 'base64' && <p class="muted">A binary file ({file.sizeBytes.toLocaleString()} bytes): not shown.</p>}
      {file && file.encoding === 'utf8' && (
        <pre class="code">
          <code
            class={`hljs${language ? ` language-${language}` : ''}`}
            dangerouslySetInnerHTML={{ __html: highlightCode(file.content, language) }}
          />
        </pre>
      )}
      {!file && !error && <p class="muted">Loading…</p>}
    </section>
  );
}
