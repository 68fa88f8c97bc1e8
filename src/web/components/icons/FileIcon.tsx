import {
  File,
  FileArchive,
  FileBraces,
  FileCode,
  FileCog,
  FileImage,
  FileLock,
  FileSpreadsheet,
  FileTerminal,
  FileText,
  FileType,
  Folder,
  type LucideIcon,
} from 'lucide-preact';

/** A file's kind at a glance, as an editor's file tree shows it: by extension (or a well-known name). */
const BY_EXTENSION: Record<string, LucideIcon> = {
  ...kinds(FileCode, 'ts tsx mts cts js jsx mjs cjs py go rs java kt swift c h cc cpp hpp cs rb php lua vue svelte html css scss sql'),
  ...kinds(FileBraces, 'json jsonc json5 yaml yml toml xml'),
  ...kinds(FileText, 'md mdx txt rst adoc'),
  ...kinds(FileImage, 'png jpg jpeg gif webp svg ico bmp avif'),
  ...kinds(FileTerminal, 'sh bash zsh fish ps1 bat'),
  ...kinds(FileCog, 'ini cfg conf env properties editorconfig'),
  ...kinds(FileArchive, 'zip gz tgz tar xz bz2 7z'),
  ...kinds(FileSpreadsheet, 'csv tsv xlsx'),
  ...kinds(FileType, 'ttf otf woff woff2'),
  ...kinds(FileLock, 'lock pem key'),
};
const BY_NAME: Record<string, LucideIcon> = {
  dockerfile: FileCog,
  makefile: FileTerminal,
  '.gitignore': FileCog,
  '.npmrc': FileCog,
  license: FileText,
};

export function FileIcon({ name, kind = 'file' }: { name: string; kind?: 'file' | 'directory' }) {
  const Icon = kind === 'directory' ? Folder : iconOf(name);
  return <Icon class="icon file-icon" size={16} aria-hidden="true" />;
}

function iconOf(name: string): LucideIcon {
  const lower = name.toLowerCase();
  const extension = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  return BY_NAME[lower] ?? BY_EXTENSION[extension] ?? File;
}

function kinds(icon: LucideIcon, extensions: string): Record<string, LucideIcon> {
  return Object.fromEntries(extensions.split(' ').map((extension) => [extension, icon]));
}
