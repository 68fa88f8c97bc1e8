import { useComputed } from '@preact/signals';
import { Brain, FilePen, SquareTerminal, Wrench } from 'lucide-preact';
import { sentReview } from '../changes/sentReview';
import { ReviewCommentsCard } from '../changes/ReviewCommentsCard';
import { serviceQuestionOf } from '../ship/servicePrompt';
import { renderMarkdown } from '../render/markdown';
import type { ItemModel, ItemShape, NoteModel } from '../state/transcriptModel';
import { userTextOf } from '../state/userText';

/** One item of a turn; each kind reads only its own signals, so a delta touches only its own element. */
export function ItemView({ model }: { model: ItemModel }) {
  const item = model.item.value;
  switch (item.type) {
    case 'agentMessage':
      return <AgentMessage model={model} />;
    case 'reasoning':
      return <Reasoning model={model} />;
    case 'userMessage':
      return <UserMessage item={item} />;
    case 'commandExecution':
      return <CommandExecution model={model} item={item} />;
    case 'fileChange':
      return <FileChange item={item} />;
    default:
      return <ToolCall item={item} />;
  }
}

function AgentMessage({ model }: { model: ItemModel }) {
  const html = useComputed(() => renderMarkdown(model.text.value));
  const streaming = useComputed(() => model.item.value.text === '' && model.text.value !== '');
  return (
    <article
      class="item agent-message"
      aria-label="Agent message"
      data-item-id={model.key}
      aria-busy={streaming.value ? 'true' : undefined}
    >
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html.value }} />
    </article>
  );
}

/** The agent's thinking, collapsed: it streams inside while the reader keeps it open, and says so. */
function Reasoning({ model }: { model: ItemModel }) {
  const streaming = model.item.value.text === '' && model.text.value !== '';
  return (
    <details class="item reasoning" data-item-id={model.key} aria-busy={streaming ? 'true' : undefined}>
      <summary>
        <Brain class="icon" size={14} aria-hidden="true" />
        <span class="kind">Thinking</span>
        {streaming && <span class="item-status"> running</span>}
      </summary>
      <div class="reasoning-text">{model.text.value}</div>
    </details>
  );
}

function UserMessage({ item }: { item: ItemShape }) {
  // The review comments the server added after the prompt (issue 38) show as a card, not as typed text.
  const review = sentReview(item, userTextOf(item));
  // A question the service asked for a commit message or a pull request (issue 39) is shown as the service's.
  const asked = serviceQuestionOf(review.prompt);
  if (asked !== null) {
    return (
      <article class="item user-message service-prompt" aria-label="Asked by the service" data-item-id={item.id}>
        <p class="who">Asked by the service</p>
        <div class="user-text">{asked}</div>
      </article>
    );
  }
  return (
    <article class="item user-message" aria-label="You" data-item-id={item.id}>
      <p class="who">You</p>
      <div class="user-text">{review.prompt}</div>
      <ReviewCommentsCard comments={review.comments} />
    </article>
  );
}

function statusLabel(status: unknown): string {
  return status === 'inProgress' ? 'running' : String(status ?? '');
}

function CommandExecution({ model, item }: { model: ItemModel; item: ItemShape }) {
  const output = model.output.value;
  const exit = typeof item.exitCode === 'number' ? ` · exit ${item.exitCode}` : '';
  return (
    <details class={`item command ${String(item.status)}`} open data-item-id={item.id}>
      <summary>
        <SquareTerminal class="icon" size={14} aria-hidden="true" />
        <span class="kind">Command</span> <code>{String(item.command ?? '')}</code>{' '}
        <span class="item-status">
          {statusLabel(item.status)}
          {exit}
        </span>
      </summary>
      <pre class="output" aria-label="Command output">
        {output || (item.status === 'inProgress' ? '' : '(no output)')}
      </pre>
    </details>
  );
}

function FileChange({ item }: { item: ItemShape }) {
  const diff = typeof item.diff === 'string' ? item.diff : '';
  return (
    <details class={`item file-change ${String(item.status)}`} open data-item-id={item.id}>
      <summary>
        <FilePen class="icon" size={14} aria-hidden="true" />
        <span class="kind">{item.tool === 'write' ? 'File written' : 'File edited'}</span> <code>{String(item.path ?? '')}</code>{' '}
        <span class="item-status">{statusLabel(item.status)}</span>
      </summary>
      {diff ? <Diff text={diff} /> : <p class="muted">No diff.</p>}
      {typeof item.error === 'string' && <p class="error-text">{item.error}</p>}
    </details>
  );
}

export function Diff({ text }: { text: string }) {
  return (
    <pre class="diff" aria-label="Diff">
      {text.split('\n').map((line, index) => (
        // One block per line (a line of its own when copied); an empty line keeps its height.
        <span key={index} class={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : undefined}>
          {line || ' '}
        </span>
      ))}
    </pre>
  );
}

function ToolCall({ item }: { item: ItemShape }) {
  const name = String(item.tool ?? item.type);
  return (
    <details class={`item tool-call ${String(item.status)}`} data-item-id={item.id}>
      <summary>
        <Wrench class="icon" size={14} aria-hidden="true" />
        <span class="kind">Tool</span> <code>{name}</code> <span class="tool-target">{targetOf(item.arguments)}</span>{' '}
        <span class="item-status">{statusLabel(item.status)}</span>
      </summary>
      <h4>Arguments</h4>
      <pre>{pretty(item.arguments)}</pre>
      {item.result !== undefined && (
        <>
          <h4>Result</h4>
          <pre>{pretty(item.result)}</pre>
        </>
      )}
    </details>
  );
}

export function NoteView({ note }: { note: NoteModel }) {
  return (
    <div class={`item note ${note.kind}`} role={note.kind === 'error' ? 'note' : undefined}>
      <p class="who">
        {note.title}
        {note.repeats ? <span class="repeats"> ×{note.repeats}</span> : null}
      </p>
      <div class="user-text">{note.text}</div>
    </div>
  );
}

/** What a tool call acts on, for its one-line summary: the path it reads, the pattern it searches, … */
function targetOf(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const fields = args as Record<string, unknown>;
  const target = ['path', 'file_path', 'filePath', 'pattern', 'query', 'url', 'command']
    .map((key) => fields[key])
    .find((value) => typeof value === 'string');
  return typeof target === 'string' ? target : '';
}

function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}
