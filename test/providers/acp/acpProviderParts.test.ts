import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { createProviders } from '../../../src/daemon/providerFactories';
import { BUILT_IN_ACP_AGENTS, createAcpProvider, declaredAcpAgents } from '../../../src/daemon/providers/acp';
import { acpModelIdOf } from '../../../src/daemon/providers/acp/acpModel';
import { findAgentCommand } from '../../../src/daemon/providers/acp/findAgentCommand';
import { answerByPolicy, checkPermissionMode } from '../../../src/daemon/providers/acp/permissionPolicy';

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

  describe('permission requests answered by policy (accept-edits)', () => {
    const request = (kind: string | undefined, options: Array<[string, string]>): RequestPermissionRequest =>
      ({
        sessionId: 's',
        toolCall: { toolCallId: 'c', title: 'the call', ...(kind ? { kind } : {}) },
        options: options.map(([optionId, optionKind]) => ({ optionId, name: optionId, kind: optionKind })),
      }) as RequestPermissionRequest;
    const claudeOptions: Array<[string, string]> = [
      ['allow-once', 'allow_once'],
      ['allow-always', 'allow_always'],
      ['reject', 'reject_once'],
    ];
    const codexOptions: Array<[string, string]> = [
      ['allow_once', 'allow_once'],
      ['cancel', 'reject_once'],
    ];

    it('allows an edit, a delete and a move by the option kind, whatever the agent calls the option', () => {
      for (const kind of ['edit', 'delete', 'move']) {
        expect(answerByPolicy(request(kind, claudeOptions)).response).to.deep.equal({
          outcome: { outcome: 'selected', optionId: 'allow-once' },
        });
        expect(answerByPolicy(request(kind, codexOptions)).response).to.deep.equal({
          outcome: { outcome: 'selected', optionId: 'allow_once' },
        });
      }
    });

    it('refuses anything else (approvals are not built yet), and cancels when no option refuses', () => {
      expect(answerByPolicy(request('execute', claudeOptions)).response).to.deep.equal({
        outcome: { outcome: 'selected', optionId: 'reject' },
      });
      expect(answerByPolicy(request(undefined, codexOptions)).response).to.deep.equal({
        outcome: { outcome: 'selected', optionId: 'cancel' },
      });
      expect(answerByPolicy(request('execute', [['go', 'allow_once']])).response).to.deep.equal({ outcome: { outcome: 'cancelled' } });
    });

    it('takes accept-edits (the default) and refuses the modes that need approvals', () => {
      expect(() => checkPermissionMode(undefined)).to.not.throw();
      expect(() => checkPermissionMode('accept-edits')).to.not.throw();
      expect(() => checkPermissionMode('ask')).to.throw(/permission mode "ask" is not supported by ACP agents yet/);
      expect(() => checkPermissionMode('full-access')).to.throw(/supported: accept-edits/);
    });
  });

  it("a thread's model: <agent>/<id> or a bare id picks a model, default or nothing keeps the agent's own", () => {
    expect(acpModelIdOf('codex', 'codex/gpt-5.5')).to.equal('gpt-5.5');
    expect(acpModelIdOf('codex', 'gpt-5.5')).to.equal('gpt-5.5');
    expect(acpModelIdOf('codex', 'codex/default')).to.equal(undefined);
    expect(acpModelIdOf('codex', undefined)).to.equal(undefined);
  });
});
