import { fork } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ApprovalDecision } from '../../../protocol/approvals';
import type { AskUser } from '../agentProvider';
import { AgentReportSchema, type AgentCommand, type AgentFacts } from './agentProcessMessages';
import type { ProviderFactoryRef } from './providerFactoryRef';
import { createQuestionRelay } from './questionRelay';

/** A request as the caller writes it; the process handle numbers it. (`answer`s are not requests.) */
type Request = Exclude<AgentCommand, { type: 'answer' }>;
type Command = Request extends infer C ? (C extends Request ? Omit<C, 'id'> : never) : never;

/** One running agent process of one thread, seen from the daemon. */
export interface AgentProcess {
  /** Resolves with the agent's facts once it carried the command out; rejects with its error, or when it dies. */
  request(command: Command): Promise<AgentFacts>;
  /** Resolves once the process has ended, with why (rule 1: the thread's open turn fails with this reason). */
  readonly ended: Promise<string>;
  readonly running: boolean;
  kill(): void;
}

export interface AgentProcessOptions {
  factory: ProviderFactoryRef;
  /** A script that serves the agent by itself (the bundled pi agent); default `agentProcessMain`, which loads `factory`. */
  entry?: string;
  threadId: string;
  onFrame(frame: unknown, facts: AgentFacts): void;
  /** Where the agent's questions go; without it each is answered `cancelled`. */
  askUser?: AskUser;
  log(message: string): void;
}

const ENTRY = path.join(__dirname, `agentProcessMain${path.extname(__filename)}`);

/**
 * Under ts-node (`npm start`, mocha) the entry is TypeScript and a forked process has no loader unless given
 * one; a compiled build forks plain JavaScript. Measured: the loader costs each agent process ~65 MB RSS and
 * ~0.45 s at start (docs/pi.md "Isolation").
 */
const loaderFor = (entry: string) => (entry.endsWith('.ts') ? ['-r', require.resolve('ts-node/register/transpile-only')] : []);

export function spawnAgentProcess(options: AgentProcessOptions): AgentProcess {
  const { threadId, log } = options;
  const entry = options.entry ?? ENTRY;
  const child = fork(entry, [JSON.stringify(options.factory)], {
    execArgv: loaderFor(entry),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  const waiting = new Map<number, { resolve(facts: AgentFacts): void; reject(error: Error): void }>();
  let nextId = 1;
  let running = true;
  let fatal: string | undefined;
  let lastErrorLine: string | undefined;

  // Whatever the agent prints (pi, its extensions) stays visible in the daemon's log, named by thread.
  const questions = createQuestionRelay(options.askUser ?? nobodyToAsk, (questionId, decision) => {
    if (!running) return;
    const answer: AgentCommand = { type: 'answer', questionId, decision };
    child.send(answer, (error) => error && log(`agent ${threadId}: an answer could not be sent: ${error.message}`));
  });

  createInterface({ input: child.stdout! }).on('line', (line) => log(`agent ${threadId}: ${line}`));
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.trim()) lastErrorLine = line.trim();
    log(`agent ${threadId}: ${line}`);
  });

  child.on('message', (raw) => {
    const parsed = AgentReportSchema.safeParse(raw);
    if (!parsed.success) return log(`agent ${threadId}: ignored a malformed message: ${parsed.error.message}`);
    const message = parsed.data;
    switch (message.type) {
      case 'frame':
        return options.onFrame(message.frame, message.facts);
      case 'log':
        return log(message.message);
      case 'fatal':
        fatal ??= message.message; // the first exception is the cause; any later one happened while dying
        return;
      case 'reply':
        waiting.get(message.id)?.resolve(message.facts);
        waiting.delete(message.id);
        return;
      case 'failed':
        waiting.get(message.id)?.reject(new Error(message.message));
        waiting.delete(message.id);
        return;
      case 'ask':
        return questions.ask(message.questionId, message.question);
      case 'askAborted':
        return questions.abort(message.questionId);
    }
  });

  // `close`, not `exit`: only then has every message the process sent been read, so no frame of the run
  // arrives after the reason.
  const ended = new Promise<string>((resolve) => {
    child.on('error', (error) => log(`agent ${threadId}: process error: ${error.message}`));
    child.on('close', (code, signal) => {
      running = false;
      const reason = endReason(code, signal, fatal ?? lastErrorLine);
      for (const { reject } of waiting.values()) reject(new Error(reason));
      waiting.clear();
      questions.abortAll();
      resolve(reason);
    });
  });

  return {
    ended,
    get running() {
      return running;
    },
    request(command) {
      if (!running) return ended.then((reason) => Promise.reject(new Error(reason)));
      const id = nextId++;
      return new Promise<AgentFacts>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ ...command, id }, (error) => {
          if (!error) return;
          waiting.delete(id);
          reject(error);
        });
      });
    },
    kill() {
      if (running) child.kill('SIGKILL');
    },
  };
}

const nobodyToAsk: AskUser = async (): Promise<ApprovalDecision> => ({
  outcome: 'cancelled',
  decidedBy: 'cancelled',
  reason: 'nobody can answer approvals here',
});

function endReason(code: number | null, signal: NodeJS.Signals | null, detail: string | undefined): string {
  if (signal) return `the agent process for this thread was killed (${signal})`;
  return `the agent process for this thread exited (code ${code ?? 'unknown'})${detail ? `: ${detail}` : ''}`;
}
