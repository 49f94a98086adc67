// pi's self-contained bundle (1.5.2 or 1.6.0), for the scripts that run pi's own SessionManager (CONTRIBUTING.md
// "Regenerating the pi fixtures"): PI_BUNDLE names its dist/bundle/index.js; run them with Node >= 22.19.
import { pathToFileURL } from 'node:url';

export async function loadPiBundle() {
  const bundle = process.env.PI_BUNDLE;
  if (!bundle) {
    console.error('set PI_BUNDLE to the dist/bundle/index.js of @earendil-works/pi-coding-agent (1.5.2 or 1.6.0)');
    process.exit(2);
  }
  return import(pathToFileURL(bundle).href);
}
