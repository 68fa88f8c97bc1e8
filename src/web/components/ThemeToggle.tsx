import { Monitor, Moon, Sun } from 'lucide-preact';
import { nextTheme, theme, type ThemeChoice } from '../state/theme';

const SHOWN: Record<ThemeChoice, { label: string; Icon: typeof Sun }> = {
  system: { label: 'System', Icon: Monitor },
  light: { label: 'Light', Icon: Sun },
  dark: { label: 'Dark', Icon: Moon },
};

/** One button cycling the theme: system → light → dark; its name says the current one and the next. */
export function ThemeToggle() {
  const current = theme.value;
  const { label, Icon } = SHOWN[current];
  const next = SHOWN[nextTheme(current)].label;
  return (
    <button
      type="button"
      class="icon-button"
      onClick={() => (theme.value = nextTheme(current))}
      aria-label={`Theme: ${label} (switch to ${next})`}
      title={`Theme: ${label}. Click for ${next.toLowerCase()}.`}
    >
      <Icon size={18} aria-hidden="true" />
    </button>
  );
}
