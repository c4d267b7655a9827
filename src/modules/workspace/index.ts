// The workspace module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { IMAGE_LIMITS, addImage, addPack, createFolder } from './workspace-edit.service.ts';
export { workspaceRoutes } from './workspace.routes.ts';
export {
  createPack,
  getWorkspace,
  imageFolders,
  importImages,
  readImage,
  workspaceImageUrls,
} from './workspace.service.ts';
export type { PickableImage } from './workspace.service.ts';
