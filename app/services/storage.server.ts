/** The services' one way to storage, so routes never import an adapter. */
export { getStorage } from "~/storage/index.server";
