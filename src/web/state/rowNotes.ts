import type { StoredThreadEvent } from '../api/types';
import type { NoteModel } from './transcriptModel';

/**
 * The rows the transcript shows as a note of their own: an agent's error, an extension's message, and what the
 * service did to the thread's work. Null for every other row.
 */
export function noteOf(row: StoredThreadEvent): NoteModel | null {
  const key = row.id;
  if (row.type === 'provider/error') return { kind: 'error', key, title: 'Error', text: String(row.data.message ?? '') };
  if (row.type === 'provider/unhandled') {
    const custom = customMessageOf(row.data.rawEvent);
    return custom ? { kind: 'custom', key, ...custom } : null;
  }
  const service = serviceNoteOf(row);
  return service ? { kind: 'service', key, ...service } : null;
}

/** What a note of the service's own action says: its title and one line of text. */
export interface ServiceNote {
  title: string;
  text: string;
}

const short = (sha: unknown) => String(sha ?? '').slice(0, 7);
const firstLine = (text: unknown) => String(text ?? '').split('\n')[0];
const afterRestart = (data: Record<string, unknown>) => (data['recovered'] ? ' (found after the host restarted)' : '');

/**
 * The rows the service writes for what the user did to a thread's work (issue 39): a commit, a push, one a
 * restart cut short, a pull request and its state, the fork this thread started as. Each is a line in the
 * transcript where it happened, as t3code shows its Git actions; other rows are not notes (null).
 */
export function serviceNoteOf(row: StoredThreadEvent): ServiceNote | null {
  const data = row.data as Record<string, unknown>;
  switch (row.type) {
    case 'git/committed': {
      const files = Array.isArray(data['files']) ? data['files'].length : 0;
      const text = `${short(data['sha'])} ${firstLine(data['message'])} (${files} ${files === 1 ? 'file' : 'files'})`;
      return { title: 'Committed', text: `${text}${afterRestart(data)}` };
    }
    case 'git/pushed':
      return { title: 'Pushed', text: `${data['branch']} to ${data['remote']} at ${short(data['sha'])}${afterRestart(data)}` };
    case 'git/interrupted':
      return { title: `The ${data['action']} was cut short`, text: String(data['message'] ?? '') };
    case 'pr/opened': {
      const pullRequest = (data['pullRequest'] ?? {}) as Record<string, unknown>;
      return { title: 'Pull request opened', text: `#${pullRequest['number']} ${pullRequest['url']}` };
    }
    case 'pr/state':
      return { title: 'Pull request', text: `#${data['number']} is ${data['state']}: ${data['url']}` };
    case 'thread/forked':
      return {
        title: 'Forked',
        text: data['sourceTurnId']
          ? `from thread ${data['sourceThreadId']}, after its turn ${data['sourceTurnId']}: the rows above are that thread’s`
          : `from thread ${data['sourceThreadId']}, before its first turn`,
      };
    default:
      return null;
  }
}

/** An extension's message (pi's custom role) arrives as an unhandled SDK row: shown once, from its end. */
function customMessageOf(rawEvent: unknown): { title: string; text: string } | undefined {
  const message = (rawEvent as { params?: { message?: { type?: string; message?: Record<string, unknown> } } })?.params?.message;
  if (message?.type !== 'message_end' || message.message?.role !== 'custom') return undefined;
  const inner = message.message;
  if (inner.display === false) return undefined;
  const content = inner.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : '';
  return { title: `Extension message${inner.customType ? ` (${String(inner.customType)})` : ''}`, text };
}
