import { answerOf, client } from './http';
import type { operations } from './openapi';

/** A one-time enrollment code and when it expires (epoch ms), shown once (issue 30). */
export type Enrollment = operations['postHostsEnrollments']['responses'][201]['content']['application/json'];

/** `POST /hosts/enrollments`: a code a new host trades once for a credential of its own. */
export function makeEnrollment(): Promise<Enrollment> {
  return answerOf(client.POST('/api/v1/hosts/enrollments'));
}

/** `DELETE /hosts/:id`: its credential and record go, its link closes (4006); its threads stay. */
export async function removeHost(hostId: string): Promise<void> {
  await answerOf(client.DELETE('/api/v1/hosts/{id}', { params: { path: { id: hostId } } }));
}

/** What to run on the new machine, in a checkout of this project: the daemon dials this page's server. */
export function enrollCommand(serverUrl: string, code: string): string {
  return `npm run daemon -- --server ${serverUrl} --enroll ${code}`;
}
