import { Bell } from 'lucide-preact';
import { askNotificationPermission, notificationPermission } from '../state/notifications';

/** Offered until the browser has an answer: a click is the gesture Chromium wants before it asks. */
export function NotifyButton() {
  if (notificationPermission.value !== 'default') return null;
  return (
    <button
      type="button"
      class="small secondary notify-button"
      aria-label="Notify me"
      title="Be told when a turn ends or an agent asks, in threads you are not looking at"
      onClick={() => void askNotificationPermission()}
    >
      <Bell size={15} aria-hidden="true" />
      <span class="button-label">Notify me</span>
    </button>
  );
}
