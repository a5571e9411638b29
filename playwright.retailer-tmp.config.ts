// TEMPORARY (retailer settings engineer): runs the stateful retailer spec after the setup only.
import base from "./playwright.config";
export default {
  ...base,
  projects: base.projects!.map((p) => (p.name?.endsWith("-stateful") ? { ...p, dependencies: [`setup-${p.name.replace("-stateful", "")}`] } : p)),
};
