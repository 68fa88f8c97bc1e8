import type { StoredThreadEvent } from '../store/eventStore';
import type { NotifyEvent } from './webhookNotification';

/** A stored row a user would want to hear of, with what it means in a line. */
export interface NotableMoment {
  kind: 'notable';
  event: NotifyEvent;
  row: StoredThreadEvent;
  summary: string;
  approvalId?: string;
}

/** A question got its answer (user, policy or cancel): a notice of it still waiting is no longer due. */
export interface AnsweredMoment {
  kind: 'answered';
  threadId: string;
  approvalId: string;
}

export type Moment = NotableMoment | AnsweredMoment;
