import { signal } from '@preact/signals';

/**
 * One line the page says about something that happened away from where the reader looks (a thread deleted in
 * another tab closes its view): shown above the main area until dismissed or replaced.
 */
export const notice = signal<string | null>(null);
