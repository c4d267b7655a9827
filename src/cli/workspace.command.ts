// `slotline workspace import` and `slotline workspace pack create`.
import { Option, type Command } from 'commander';
import { idList, print, withContext } from './shared.ts';

export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description('manage workspace images');
  workspace
    .command('import <files...>')
    .requiredOption('--company <companyId>')
    .requiredOption('--folder <name>', 'folder name (created when new)')
    .option('--json', 'machine-readable output')
    .action(async (files: string[], o) =>
      withContext(async (ctx) => {
        const { importImages } = await import('../modules/workspace/index.ts');
        const r = await importImages(ctx, o.company, o.folder, files);
        print(!!o.json, r, `imported ${r.imageIds.length} image(s) into folder ${r.folderId}`);
      }),
    );
  const pack = workspace.command('pack').description('image packs');
  pack
    .command('create')
    .requiredOption('--company <companyId>')
    .requiredOption('--folder <folderId>')
    .requiredOption('--name <name>')
    .requiredOption('--images <ids>', 'comma-separated image ids of the folder')
    .addOption(new Option('--fit <fit>', 'image fit').choices(['fit', 'fill']).default('fill'))
    .option('--use-once', 'use each image once')
    .option('--description <text>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { createPack } = await import('../modules/workspace/index.ts');
        const r = await createPack(ctx.db, ctx.clock, o.company, {
          folderId: o.folder,
          name: o.name,
          imageIds: idList(o.images),
          imageFit: o.fit,
          useOnce: !!o.useOnce,
          description: o.description,
        });
        print(!!o.json, r, `created pack ${r.packId}`);
      }),
    );
}
