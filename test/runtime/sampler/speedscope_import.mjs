// Loads a folded-stacks file with speedscope's own importer for the format (the one it
// uses for "*.collapsedstack.txt" and for text it recognises as collapsed stacks), and
// prints what speedscope sees: "total WEIGHT", then "self WEIGHT NAME" per frame,
// heaviest first. Usage: node speedscope_import.mjs SPEEDSCOPE_BUNDLE FOLDED_FILE
//
// speedscope ships as one browser bundle: the importer is reached by evaluating the
// bundle up to the importer's definition (its names are those of the version that
// scripts/setup.sh installs, 1.25.0) and stopping before the application starts.
import fs from 'node:fs';

const [bundlePath, foldedPath] = process.argv.slice(2);
const bundle = fs.readFileSync(bundlePath, 'utf8');
const importerDefined = 'var Fd=re(()=>{"use strict";ke()});';
if (!bundle.includes(importerDefined)) {
  console.error(`${bundlePath}: not the speedscope 1.25.0 bundle (its collapsed-stack importer was not found)`);
  process.exit(2);
}
const patched = bundle.replace(importerDefined, importerDefined +
  'globalThis.importCollapsed=(text)=>{Fd();return ul({splitLines:()=>text.split("\\n")});};throw "stop";');
try {
  (0, eval)(patched);
} catch (stop) {
  if (stop !== 'stop') throw stop;
}
const profile = globalThis.importCollapsed(fs.readFileSync(foldedPath, 'utf8'));
if (profile === null) {
  console.error(`${foldedPath}: speedscope found no collapsed stacks in it`);
  process.exit(1);
}
console.log(`total ${profile.getTotalWeight()}`);
const frames = [];
profile.forEachFrame((frame) => frames.push([frame.getSelfWeight(), frame.name]));
frames.sort((a, b) => b[0] - a[0]);
for (const [weight, name] of frames) console.log(`self ${weight} ${name}`);
