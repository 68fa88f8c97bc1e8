// Preloaded by bench:open-threads into the service it measures (`node --expose-gc -r …`): SIGUSR2 runs a full
// collection and says so on stdout, so the bench can read the service's RSS with and without garbage.
process.on('SIGUSR2', () => {
  global.gc();
  process.stdout.write('bench: gc done\n');
});
