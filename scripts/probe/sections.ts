// Every section of `npm run probe:hardening`, in the order they run.
import { basicSections } from './basics.ts';
import { bodySections } from './bodies.ts';
import { mcpSections } from './mcp.ts';
import { mediaSections } from './media.ts';
import { nextTargetSections } from './next-targets.ts';
import { proofSections } from './proof.ts';
import { screenSections } from './screens.ts';
import type { Section } from './section.ts';

export const sections: Section[] = [
  ...basicSections,
  ...mediaSections,
  ...bodySections,
  ...nextTargetSections,
  ...proofSections,
  ...mcpSections,
  ...screenSections,
];
