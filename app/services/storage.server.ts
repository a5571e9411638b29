/** The services' one way to storage, so routes never import an adapter. */
export { getStorage, initStorage } from "~/storage/index.server";
