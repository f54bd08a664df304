/** The test order: Jest's, with the browser files spread through it by the others' time. */
import path from 'node:path';

interface File {
  path: string;
  duration?: number;
}
const { spreadBrowserFiles } = jest.requireActual<{ spreadBrowserFiles: (ordered: File[]) => File[] }>(path.join(__dirname, 'sequencer.js'));

const file = (name: string, duration?: number): File => ({ path: `/repo/test/${name}.test.ts`, duration });
const browser = (name: string, duration?: number): File => ({ path: `/repo/test/${name}.browser.test.ts`, duration });
const names = (files: File[]) => files.map((f) => path.basename(f.path, '.test.ts'));

it('starts browser file k of n once the other files before it weigh k / n of their time', () => {
  // Others weigh 40 + 30 + 20 + 10 = 100: the second browser file goes once 50 is behind it.
  const ordered = [browser('b1', 90), browser('b2', 80), file('a', 40), file('b', 30), file('c', 20), file('d', 10)];
  expect(names(spreadBrowserFiles(ordered))).toEqual(['b1.browser', 'a', 'b', 'b2.browser', 'c', 'd']);
});

it('counts one per file before any run was timed, and keeps every file once, in Jest order otherwise', () => {
  const ordered = [browser('b1'), browser('b2'), browser('b3'), ...['a', 'b', 'c', 'd', 'e', 'f'].map((n) => file(n))];
  const spread = spreadBrowserFiles(ordered);
  expect(names(spread)).toEqual(['b1.browser', 'a', 'b', 'b2.browser', 'c', 'd', 'b3.browser', 'e', 'f']);
  expect(new Set(spread)).toEqual(new Set(ordered));
});

it('leaves a run without browser files, or with nothing else, as it was', () => {
  const plain = [file('a', 3), file('b', 2)];
  expect(spreadBrowserFiles(plain)).toEqual(plain);
  const browsers = [browser('b1', 3), browser('b2', 2)];
  expect(spreadBrowserFiles(browsers)).toEqual(browsers);
});
