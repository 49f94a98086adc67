// Imported first by main.ts, before any schema is built: zod 4 decides at schema construction whether
// to compile parsers with `new Function`, probing eval once. Our CSP forbids eval, and the probe alone
// is reported as a CSP violation, so declare the environment jitless up front.
import { z } from 'zod';

z.config({ jitless: true });
