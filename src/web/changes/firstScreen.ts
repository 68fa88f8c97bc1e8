/** Files of the Changes view's first answer: more than a screen holds, few enough that the host reads them in a blink. */
export const FIRST_SCREEN_FILES = 30;
