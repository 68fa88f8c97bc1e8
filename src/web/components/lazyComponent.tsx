import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';

/** A component whose code loads apart from the page's entry, and a way to start that load ahead of use. */
export type LazyComponent<P> = ComponentType<P> & { preload(): Promise<void> };

/**
 * A page part whose code (the transcript's Markdown and highlighting, the forms) is not needed for the first
 * screen: it stays out of the entry, so the lists paint without compiling it (issue 29: lists within 300 ms
 * of sign-in). Until the code has loaded the part says "Loading…"; the entry preloads every part once the
 * first screen has painted, so a click later finds it ready. A failed load (a build replaced under an open
 * tab) says so instead of trying again on every render; `preload` may still try again.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  const loaded = signal<ComponentType<P> | null>(null);
  const failed = signal(false);
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => void ((loaded.value = component), (failed.value = false)),
      () => void ((loading = undefined), (failed.value = true)),
    ));
  const Lazy = (props: P) => {
    const Component = loaded.value;
    if (Component) return <Component {...props} />;
    if (!failed.value) void preload();
    return <p class="muted loading">{failed.value ? 'This part of the page could not be loaded; reload the page.' : 'Loading…'}</p>;
  };
  return Object.assign(Lazy, { preload });
}
