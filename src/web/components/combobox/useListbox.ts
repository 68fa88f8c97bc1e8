import { useEffect, useState, type Dispatch, type StateUpdater } from 'preact/hooks';

export interface Listbox {
  /** The highlighted row. */
  active: number;
  setActive: Dispatch<StateUpdater<number>>;
  onKeyDown: (event: KeyboardEvent) => void;
}

/**
 * The keys of a combobox over rows, as in VS Code's quick open: arrows move the highlight, Enter hands the
 * highlighted row to `onEnter`, Escape closes; with `holdTab`, Tab is held so focus stays in the input. The
 * highlight goes back to the first row whenever `resetOn` changes (a new answer, not a page appended).
 */
export function useListbox<Row>(
  rows: Row[],
  resetOn: unknown,
  actions: { onEnter: (row: Row | undefined) => void; close: () => void; holdTab?: boolean },
): Listbox {
  const [active, setActive] = useState(0);
  useEffect(() => setActive(0), [resetOn]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setActive((index) => Math.min(rows.length - 1, index + 1));
    else if (event.key === 'ArrowUp') setActive((index) => Math.max(0, index - 1));
    else if (event.key === 'Enter') actions.onEnter(rows[active]);
    else if (event.key === 'Escape') actions.close();
    else if (!(event.key === 'Tab' && actions.holdTab)) return;
    event.preventDefault();
  };
  return { active, setActive, onKeyDown };
}
