import { signal } from '@preact/signals';
import type { PathEntry, Project } from '../api/types';

/**
 * The quick-open dialog: opened by Ctrl+P / Cmd+P to preview a file, or by `@` in the prompt to insert a
 * path. `pick` is what Enter does with the chosen entry.
 */
export interface QuickOpenRequest {
  project: Project;
  pick: (entry: PathEntry) => void;
  /** Where focus goes back when the dialog closes. */
  returnFocus: HTMLElement | null;
}

export const quickOpen = signal<QuickOpenRequest | null>(null);

/** The file shown in the "File preview" region. */
export const preview = signal<{ project: Project; path: string } | null>(null);

export function openQuickOpen(project: Project, pick: (entry: PathEntry) => void): void {
  quickOpen.value = { project, pick, returnFocus: document.activeElement as HTMLElement | null };
}

export function closeQuickOpen(): void {
  const request = quickOpen.value;
  quickOpen.value = null;
  request?.returnFocus?.focus();
}
