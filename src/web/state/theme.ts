import { effect, signal } from '@preact/signals';

/** The page's colours: the system's setting (`prefers-color-scheme`), or one the reader chose and keeps. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'agent-threads.theme';
const ORDER: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export const theme = signal<ThemeChoice>(storedTheme());

/** The choice after `choice` in the toggle's cycle: system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length]!;
}

/**
 * Keeps `<html data-theme>` and localStorage in step with the choice. The stylesheet reads the attribute
 * (its colours are `light-dark()` pairs; no attribute means the system decides), so a change repaints at
 * once without re-rendering anything. Runs before the first render, so a stored dark theme never flashes light.
 */
export function followTheme(): () => void {
  return effect(() => {
    const choice = theme.value;
    if (choice === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = choice;
    try {
      if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, choice);
    } catch {
      // Storage refused (a private window's quota): the choice holds until the tab closes.
    }
  });
}

function storedTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}
