import { useEffect, useRef, useState } from 'preact/hooks';
import { answerOf, client, messageOf } from '../api/http';
import { modelsOf } from '../api/models';
import type { ModelChoice, PermissionMode } from '../api/types';
import { agentName, agentsOf, DEFAULT_MODE, PERMISSION_MODES } from '../state/agents';
import { projects, refreshDirectory } from '../state/directory';
import { defaultModel } from '../state/modelChoices';
import { go, threadHref } from '../state/route';
import { CHECKOUT, workspaceBody, WorktreeFields, type WorkspaceChoice } from '../changes/WorktreeFields';
import { ModelPicker } from './ModelPicker';

/**
 * A thread in a project: an agent and one of its models from the host's catalog (at least one entry per
 * agent the host offers; the ones it can run first), a permission mode, and optionally a first prompt.
 */
export function NewThread({ projectId }: { projectId: string }) {
  const project = projects.value.find((candidate) => candidate.id === projectId);
  const [models, setModels] = useState<ModelChoice[] | null>(null);
  const [agent, setAgent] = useState('');
  const [model, setModel] = useState('');
  const [mode, setMode] = useState<PermissionMode>(DEFAULT_MODE);
  const [title, setTitle] = useState('');
  const [prompt, setPrompt] = useState('');
  const [workspace, setWorkspace] = useState<WorkspaceChoice>(CHECKOUT);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const hostId = project?.source.hostId;

  useEffect(() => heading.current?.focus(), []);
  useModelCatalog(hostId, { setModels, setAgent, setModel, setError });

  const agents = agentsOf(models ?? []);
  const agentModels = agents.find((group) => group.provider === agent)?.models ?? [];
  const chooseAgent = (provider: string) => {
    setAgent(provider);
    setModel(defaultModel(agents.find((group) => group.provider === provider)?.models ?? [])?.value ?? '');
  };

  if (!project) return <p class="panel muted">Loading the project…</p>;
  return (
    <section class="panel" aria-labelledby="new-thread-heading">
      <h2 id="new-thread-heading" tabIndex={-1} ref={heading}>
        New thread in {project.name}
      </h2>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          try {
            // A typed model (no catalog) runs on pi, the agent every host has today.
            const choice = models?.find((candidate) => candidate.value === model);
            const chosen = choice ? { provider: choice.provider, model: choice.model } : { provider: 'pi', model: model.trim() };
            const body = {
              projectId,
              ...chosen,
              permissionMode: mode,
              title: titleOf(title, prompt),
              ...workspaceBody(workspace),
              ...(prompt.trim() ? { prompt: prompt.trim() } : {}),
            };
            const thread = await answerOf(client.POST('/api/v1/threads', { body }));
            await refreshDirectory();
            go(threadHref(thread.id));
          } catch (failure) {
            setError(messageOf(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="thread-title">Title</label>
        <input
          id="thread-title"
          maxLength={500}
          placeholder="The first prompt's first line when left empty"
          value={title}
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
        {agents.length > 0 && (
          <>
            <label for="thread-agent">Agent</label>
            <select id="thread-agent" value={agent} onChange={(event) => chooseAgent(event.currentTarget.value)}>
              {agents.map((group) => (
                <option key={group.provider} value={group.provider}>
                  {agentName(group.provider)}
                </option>
              ))}
            </select>
          </>
        )}
        <label for="thread-model">Model</label>
        {models !== null && models.length === 0 ? (
          // No catalog to choose from (an older host, or none configured): the model is typed as provider/id.
          <input
            id="thread-model"
            required
            placeholder="provider/model"
            value={model}
            onInput={(event) => setModel(event.currentTarget.value)}
          />
        ) : models === null ? (
          <p class="muted">Loading the catalog…</p>
        ) : (
          <ModelPicker key={agent} choices={agentModels} value={model} onChange={setModel} />
        )}
        <label for="thread-mode">Permission mode</label>
        <select id="thread-mode" value={mode} onChange={(event) => setMode(event.currentTarget.value as PermissionMode)}>
          {PERMISSION_MODES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        <WorktreeFields value={workspace} onChange={setWorkspace} />
        <label for="thread-prompt">First prompt (optional)</label>
        <textarea id="thread-prompt" rows={4} value={prompt} onInput={(event) => setPrompt(event.currentTarget.value)} />
        {error && (
          <p role="alert" class="error-text">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !model || !titleOf(title, prompt)}>
          Create thread
        </button>
      </form>
    </section>
  );
}

/** A thread needs a title: the typed one, else the first line of the first prompt (cut at 80 characters). */
function titleOf(title: string, prompt: string): string {
  const typed = title.trim();
  if (typed) return typed;
  const firstLine = prompt.trim().split('\n')[0] ?? '';
  return firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
}

/** The host's model catalog, read once per host: the first agent and its default model are chosen unless one is. */
function useModelCatalog(
  hostId: string | undefined,
  set: {
    setModels(models: ModelChoice[]): void;
    setAgent(update: (current: string) => string): void;
    setModel(update: (current: string) => string): void;
    setError(error: string): void;
  },
) {
  useEffect(() => {
    if (!hostId) return;
    modelsOf(hostId).then(
      ({ choices, problems }) => {
        set.setModels(choices);
        // The catalog lists runnable models first: the first agent is one that can run, if any can.
        set.setAgent((current) => current || choices[0]?.provider || '');
        set.setModel((current) => current || defaultModel(choices)?.value || '');
        if (problems.length > 0) set.setError(`Part of the catalog could not be read: ${problems.join('; ')}`);
      },
      (failure: unknown) => {
        set.setModels([]);
        set.setError(`The host's model catalog could not be read: ${messageOf(failure)}`);
      },
    );
  }, [hostId]);
}
