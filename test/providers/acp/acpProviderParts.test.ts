import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { createProviders } from '../../../src/daemon/providerFactories';
import { BUILT_IN_ACP_AGENTS, createAcpProvider, declaredAcpAgents } from '../../../src/daemon/providers/acp';
import { acpModelIdOf } from '../../../src/daemon/providers/acp/acpModel';
import { findAgentCommand } from '../../../src/daemon/providers/acp/findAgentCommand';
import type { ClientConnection } from '@agentclientprotocol/sdk';
import { agentModeIdFor, applyAgentMode } from '../../../src/daemon/providers/acp/agentModes';
import type { AcpSdk } from '../../../src/daemon/providers/acp/loadAcpSdk';
import { promptUsageOf } from '../../../src/daemon/providers/acp/promptUsage';
import { approvalQuestionOf, permissionResponseOf, refusalOf } from '../../../src/daemon/providers/acp/approvalQuestion';
import type { PermissionMode } from '../../../src/protocol/approvals';

const log = () => undefined;

describe('ACP provider parts', () => {
  describe('agents declared in ATS_ACP_AGENTS', () => {
    it('reads name → command, with args and env defaulting to none; unset is none', () => {
      expect(declaredAcpAgents({})).to.deep.equal({});
      expect(declaredAcpAgents({ ATS_ACP_AGENTS: '{"opencode":{"command":"opencode","args":["acp"]}}' })).to.deep.equal({
        opencode: { command: 'opencode', args: ['acp'], env: {} },
      });
    });

    const refusals: Array<[string, RegExp]> = [
      ['{not json', /ATS_ACP_AGENTS is invalid at \(top\): not JSON/],
      ['{"Open Code":{"command":"x"}}', /ATS_ACP_AGENTS is invalid at Open Code/],
      ['{"x":{"args":[]}}', /ATS_ACP_AGENTS is invalid at x\.command/],
      ['{"x":{"command":"x","shell":true}}', /ATS_ACP_AGENTS is invalid at x/],
    ];
    for (const [text, message] of refusals) {
      it(`refuses ${text} naming the variable and the place`, () => {
        expect(() => declaredAcpAgents({ ATS_ACP_AGENTS: text })).to.throw(message);
      });
    }

    it('createProviders builds a declared agent under its name, and names declared agents among the known ones', () => {
      const env = { ATS_ACP_AGENTS: '{"opencode":{"command":"opencode","args":["acp"]}}' };
      expect(createProviders(['claude', 'opencode'], log, 'process', env).map((provider) => provider.id)).to.deep.equal([
        'claude',
        'opencode',
      ]);
      expect(() => createProviders(['nope'], log, 'process', env)).to.throw(
        /unknown agent provider "nope" \(known: pi, claude, codex, gemini, opencode\)/,
      );
    });
  });

  describe('finding the agent command', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'ats-acp-bin-'));
      writeFileSync(path.join(dir, 'some-agent'), '#!/bin/sh\n');
      chmodSync(path.join(dir, 'some-agent'), 0o755);
      writeFileSync(path.join(dir, 'not-executable'), '');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('looks on PATH, then in the extra bin folders, and only takes executables', () => {
      expect(findAgentCommand('some-agent', { path: dir })).to.equal(path.join(dir, 'some-agent'));
      expect(findAgentCommand('some-agent', { path: '/nonexistent', binDirs: [dir] })).to.equal(path.join(dir, 'some-agent'));
      expect(findAgentCommand('not-executable', { path: dir })).to.equal(undefined);
      expect(findAgentCommand('missing-agent', { path: dir })).to.equal(undefined);
      expect(findAgentCommand(path.join(dir, 'some-agent'), {})).to.equal(path.join(dir, 'some-agent'));
    });

    it('an agent that is not installed fails the thread with the command to install it, and its model is listed unavailable', async () => {
      const provider = createAcpProvider({ name: 'claude', spec: BUILT_IN_ACP_AGENTS.claude, env: { PATH: dir }, binDirs: [], log });
      expect(await provider.listModels!()).to.deep.equal([
        { provider: 'claude', model: 'claude/default', name: "claude (the agent's own default model)", available: false },
      ]);
      const opening = provider.openThread({ threadId: 't', cwd: dir, model: 'claude/default', dataDir: dir, emit: log });
      await opening.then(
        () => expect.fail('opened'),
        (error: Error) =>
          expect(error.message).to.contain(
            'is not on PATH or in node_modules/.bin; install it: npm i -g @agentclientprotocol/claude-agent-acp',
          ),
      );
    });
  });

  describe('permission requests as the questions the user sees', () => {
    const request = (toolCall: Record<string, unknown>, options: Array<[string, string]>): RequestPermissionRequest =>
      ({
        sessionId: 's',
        toolCall: { toolCallId: 'c', ...toolCall },
        options: options.map(([optionId, optionKind]) => ({ optionId, name: `name of ${optionId}`, kind: optionKind })),
      }) as RequestPermissionRequest;
    const claudeOptions: Array<[string, string]> = [
      ['allow-once', 'allow_once'],
      ['allow-with-updates', 'allow_always'],
      ['reject', 'reject_once'],
    ];
    const codexOptions: Array<[string, string]> = [
      ['allow_once', 'allow_once'],
      ['cancel', 'reject_once'],
    ];

    it("Claude's command: the command line, the title, the tool call, its paths made absolute, the options one to one", () => {
      const claude = request(
        {
          kind: 'execute',
          title: 'echo hi > out.txt',
          locations: [{ path: '/work/out.txt' }, { path: 'sub/other.txt' }],
          rawInput: { command: 'echo hi > out.txt', description: 'Run the command' },
        },
        claudeOptions,
      );
      expect(approvalQuestionOf(claude, '/work')).to.deep.equal({
        subject: {
          kind: 'execute',
          title: 'echo hi > out.txt',
          toolCallId: 'c',
          command: 'echo hi > out.txt',
          paths: ['/work/out.txt', '/work/sub/other.txt'],
        },
        options: [
          { optionId: 'allow-once', name: 'name of allow-once', kind: 'allow_once' },
          { optionId: 'allow-with-updates', name: 'name of allow-with-updates', kind: 'allow_always' },
          { optionId: 'reject', name: 'name of reject', kind: 'reject_once' },
        ],
      });
    });

    it("Codex's argv is joined into one command line; an option of a kind nobody knows is left out", () => {
      const codex = request({ kind: 'execute', title: 'ls', rawInput: { command: ['bash', '-lc', 'ls -la'] } }, [
        ...codexOptions,
        ['weird', 'maybe_later'],
      ]);
      const question = approvalQuestionOf(codex, '/work');
      expect(question.subject.command).to.equal('bash -lc ls -la');
      expect(question.options.map((option) => option.optionId)).to.deep.equal(['allow_once', 'cancel']);
    });

    it("Gemini's command has no rawInput: its title is the command line (as the command's row reads it)", () => {
      const gemini = request(
        {
          kind: 'execute',
          status: 'pending',
          title: 'echo hi > out.txt',
          content: [{ type: 'content', content: { type: 'text', text: '[current working directory /work]' } }],
          locations: [],
        },
        [
          ['proceed_always', 'allow_always'],
          ['proceed_once', 'allow_once'],
          ['cancel', 'reject_once'],
        ],
      );
      const question = approvalQuestionOf(gemini, '/work');
      expect(question.subject).to.deep.equal({
        kind: 'execute',
        title: 'echo hi > out.txt',
        toolCallId: 'c',
        command: 'echo hi > out.txt',
        paths: [],
      });
      expect(question.options.map((option) => option.kind)).to.deep.equal(['allow_always', 'allow_once', 'reject_once']);
    });

    it('an edit carries its diff made of the old and new text, and the diff path among its paths', () => {
      const edit = request(
        { kind: 'edit', title: 'Edit notes.txt', content: [{ type: 'diff', path: '/work/notes.txt', oldText: 'a\n', newText: 'b\n' }] },
        claudeOptions,
      );
      expect(approvalQuestionOf(edit, '/work').subject).to.deep.equal({
        kind: 'edit',
        title: 'Edit notes.txt',
        toolCallId: 'c',
        diff: '--- /work/notes.txt\n+++ /work/notes.txt\n-a\n+b',
        paths: ['/work/notes.txt'],
      });
    });

    it("the decision goes back as the chosen option id, or cancelled; with nobody to ask, the agent's reject option", () => {
      expect(
        permissionResponseOf({ outcome: 'selected', optionId: 'allow-once', optionKind: 'allow_once', decidedBy: 'user' }),
      ).to.deep.equal({
        outcome: { outcome: 'selected', optionId: 'allow-once' },
      });
      expect(permissionResponseOf({ outcome: 'cancelled', decidedBy: 'cancelled', reason: 'stopped' })).to.deep.equal({
        outcome: { outcome: 'cancelled' },
      });
      expect(refusalOf(request({ kind: 'execute' }, claudeOptions))).to.deep.equal({
        outcome: { outcome: 'selected', optionId: 'reject' },
      });
      expect(refusalOf(request({ kind: 'execute' }, codexOptions))).to.deep.equal({ outcome: { outcome: 'selected', optionId: 'cancel' } });
      expect(refusalOf(request({ kind: 'execute' }, [['go', 'allow_once']]))).to.deep.equal({ outcome: { outcome: 'cancelled' } });
    });
  });

  describe("thread modes as the agents' own session modes", () => {
    const offering = (...ids: string[]) => ({ currentModeId: ids[0]!, availableModes: ids.map((id) => ({ id, name: id })) });
    const claude = offering('auto', 'default', 'acceptEdits', 'plan');
    const codex = offering('agent', 'read-only', 'workspace-write', 'agent-full-access');
    // As Gemini CLI 0.61's session/new reports them.
    const gemini = offering('default', 'autoEdit', 'yolo', 'plan');
    const cases: Array<[PermissionMode, string, string, string]> = [
      ['ask', 'default', 'read-only', 'default'],
      ['accept-edits', 'acceptEdits', 'workspace-write', 'autoEdit'],
      ['full-access', 'auto', 'agent-full-access', 'yolo'],
    ];
    for (const [mode, claudeMode, codexMode, geminiMode] of cases) {
      it(`${mode}: Claude Code ${claudeMode}, Codex ${codexMode}, Gemini CLI ${geminiMode}`, () => {
        expect(agentModeIdFor(mode, claude)).to.equal(claudeMode);
        expect(agentModeIdFor(mode, codex)).to.equal(codexMode);
        expect(agentModeIdFor(mode, gemini)).to.equal(geminiMode);
      });
    }

    /** A connection whose agent refuses the mode ids in `refused`, recording every session/set_mode. */
    const refusing = (...refused: string[]) => {
      const asked: string[] = [];
      const connection = {
        agent: {
          request: async (_method: unknown, params: { modeId: string }) => {
            asked.push(params.modeId);
            if (refused.includes(params.modeId)) throw new Error('Cannot enable privileged approval modes in an untrusted folder.');
            return {};
          },
        },
      } as unknown as ClientConnection;
      return { asked, connection };
    };
    const sdk = { methods: { agent: { session: { setMode: 'session/set_mode' } } } } as unknown as AcpSdk;
    const session = { sessionId: 's', modes: gemini };

    it('a mode the agent refuses (Gemini CLI in a folder it does not trust) falls back to a stricter one, which the log says', async () => {
      const logs: string[] = [];
      const { asked, connection } = refusing('yolo', 'autoEdit');
      await applyAgentMode(sdk, connection, session, 'full-access', (message) => logs.push(message));
      expect(asked).to.deep.equal(['yolo', 'autoEdit', 'default']);
      expect(logs).to.deep.equal([
        'the agent refused its mode "yolo" for "full-access" (Cannot enable privileged approval modes in an untrusted folder.); it runs in "default" (the mode for "ask"), and the daemon answers what it asks by "full-access"',
      ]);
    });

    it('an agent that refuses even the strictest mode fails with its reason', async () => {
      const { asked, connection } = refusing('default', 'autoEdit');
      let failure: unknown;
      await applyAgentMode(sdk, connection, session, 'accept-edits', () => undefined).catch((error: unknown) => (failure = error));
      expect(asked).to.deep.equal(['autoEdit', 'default']);
      expect(String(failure)).to.contain('untrusted folder');
    });

    it('full-access takes bypassPermissions where Claude Code offers it; an agent without modes has no match', () => {
      expect(agentModeIdFor('full-access', offering('auto', 'default', 'bypassPermissions'))).to.equal('bypassPermissions');
      expect(agentModeIdFor('ask', undefined)).to.equal(undefined);
      expect(agentModeIdFor('ask', offering('agent'))).to.equal(undefined);
    });
  });

  it("a prompt's token usage: ACP's usage, else Gemini CLI's _meta.quota.token_count, else none", () => {
    const usage = { inputTokens: 120, outputTokens: 8, cachedReadTokens: 20, totalTokens: 148 };
    expect(promptUsageOf({ stopReason: 'end_turn', usage })).to.equal(usage);
    const gemini = { stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 240, output_tokens: 16 }, model_usage: [] } } };
    expect(promptUsageOf(gemini)).to.deep.equal({ inputTokens: 240, outputTokens: 16, totalTokens: 256 });
    expect(promptUsageOf({ stopReason: 'cancelled' })).to.equal(undefined);
    expect(promptUsageOf({ _meta: { quota: { token_count: { input_tokens: 'x' } } } })).to.equal(undefined);
    expect(promptUsageOf(undefined)).to.equal(undefined);
  });

  it("a thread's model: <agent>/<id> or a bare id picks a model, default or nothing keeps the agent's own", () => {
    expect(acpModelIdOf('codex', 'codex/gpt-5.5')).to.equal('gpt-5.5');
    expect(acpModelIdOf('codex', 'gpt-5.5')).to.equal('gpt-5.5');
    expect(acpModelIdOf('codex', 'codex/default')).to.equal(undefined);
    expect(acpModelIdOf('codex', undefined)).to.equal(undefined);
  });
});
