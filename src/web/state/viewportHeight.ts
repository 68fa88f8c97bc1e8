/**
 * Keeps `--viewport-height` at the visual viewport's height: on a phone the on-screen keyboard shrinks the
 * visual viewport (not always the layout one), and the page's frame follows it, so the prompt box stays
 * just above the keyboard rather than under it (issue 31). Without `visualViewport` the stylesheet's
 * `100dvh` holds.
 */
export function followViewportHeight(): () => void {
  const viewport = window.visualViewport;
  if (!viewport) return () => undefined;
  const update = () => document.documentElement.style.setProperty('--viewport-height', `${Math.round(viewport.height)}px`);
  update();
  viewport.addEventListener('resize', update);
  return () => viewport.removeEventListener('resize', update);
}
