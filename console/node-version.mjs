// The Node versions that build the console are Vite 8's: 20.19 or later on 20, 22.12 or later, 23 and up.
// Older ones fail deep inside Vite or npm with errors that do not say why; this says it first.

/** The reason this Node (its `process.versions.node`) cannot build the console, or null when it can. */
export function nodeTooOld(version) {
  const [major, minor] = version.split('.').map(Number);
  const supported = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
  return supported ? null
    : `Node ${version} cannot build the console: it needs Node 20.19+ or 22.12+. Install one (https://nodejs.org), `
      + 'or leave console/dist as committed: building and running the service need no Node at all.';
}
