// Setup for every e2e file: a test that fails leaves a screenshot of the workbench and its
// console's last lines in test-results/e2e/failed/ (CI copies them back), so a failure seen
// once on a loaded machine can be read afterwards.
import { afterEach } from 'vitest';
import { keepFailureEvidence } from './workbench';

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await keepFailureEvidence(task.name);
});
