/**
 * Every form of the console and the browser test that submits it with JavaScript off (issue 8
 * section 5: the JS-off project runs only the tests tagged @nojs, and between them they must
 * submit each form at least once).
 *
 * A form is named by what it posts: its `intent` (a lifecycle action of a campaign by
 * `campaign-action:<action>`), or `POST <path>` for the few forms without an intent (sign-in,
 * sign-out, password links). tests/unit/nojs-forms.test.ts lists the forms of app/ and fails when
 * one is missing here or names a test that does not exist or is not tagged @nojs; the fixtures
 * (tests/e2e/fixtures.ts) fail a JS-off test that this table names but that did not submit the form.
 * `null`: no browser test submits the form with JavaScript off yet (its rule is tested through
 * the route's action in tests/integration).
 *
 * To see what each test submits: `E2E_FORMS_LOG=/tmp/forms.jsonl npx playwright test --project
 * js-off --project js-off-stateful` appends one line per test (its spec, title and forms).
 */

export interface NoJsTest {
  /** The spec file, in tests/e2e. */
  spec: string;
  /** The test's title, as written (without its describe blocks). */
  test: string;
}

/**
 * The name of a form submission: its intent (and action), or its method and path. A form that
 * shares its intent with another but acts on something wider is named by its `scope` too: the
 * Products tab's "Switch on/off all N" bar (`bulk-products:campaign`, every product of the
 * campaign, ADR 48) beside the bar of the products ticked on the page (`bulk-products`).
 */
export function formKey(pathname: string, body: { intent?: string | null; action?: string | null; scope?: string | null }): string {
  if (!body.intent) return `POST ${pathname}`;
  if (body.intent === "campaign-action" && body.action) return `campaign-action:${body.action}`;
  return body.scope && body.scope !== "selected" ? `${body.intent}:${body.scope}` : body.intent;
}

export const NOJS_FORMS: Record<string, NoJsTest | null> = {
  // The operators' second factor (ADR 30); turning it off (needs the setting off) is tested through the
  // route's action in tests/integration/app-second-factor.test.ts.
  "start-second-factor": { spec: "second-factor.spec.ts", test: "an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code" },
  "confirm-second-factor": { spec: "second-factor.spec.ts", test: "an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code" },
  "second-factor-code": { spec: "second-factor.spec.ts", test: "an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code" },
  "regenerate-recovery-codes": { spec: "second-factor.spec.ts", test: "an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code" },
  "disable-second-factor": null,
  "reset-second-factor": { spec: "second-factor.spec.ts", test: "an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code" },
  "accept": { spec: "users.spec.ts", test: "invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in" },
  "add-category": { spec: "campaign-keywords.spec.ts", test: "find a category, add it as a hub with a bid under the minimum after 'Apply min bid', switch auto targeting on" },
  "add-keywords": { spec: "campaign-keywords.spec.ts", test: "add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one" },
  "add-products": { spec: "campaign-products.spec.ts", test: "add products by pasting ids, see the unknown one reported and a 3P one refused, switch one off, remove one, remove two after a confirmation" },
  "apply-min-bid": { spec: "campaign-editor.spec.ts", test: "a new draft's missing bid is set to the minimum by 'Apply min bid'" },
  // Needs a stored bid under a floor raised later: the floor prices are the server's, so the stateful spec.
  "apply-min-bid-targets": { spec: "retailer-settings.stateful.spec.ts", test: "an operator sets floor prices for a keyword and a category and a product image host, sees them kept, and removes them" },
  "auto-targeting": { spec: "campaign-keywords.spec.ts", test: "find a category, add it as a hub with a bid under the minimum after 'Apply min bid', switch auto targeting on" },
  "bulk-apply": { spec: "campaign-list.spec.ts", test: "bulk edits the end date: the review and the result name the campaign that refuses it" },
  "bulk-products": { spec: "campaign-products.spec.ts", test: "add products by pasting ids, see the unknown one reported and a 3P one refused, switch one off, remove one, remove two after a confirmation" },
  "bulk-products:campaign": { spec: "campaign-products.spec.ts", test: "a campaign of 120 products: page 2 reads '51–100 of 120'; 'Switch off all 120' asks first, then switches every product off and comes back to page 2" },
  "bulk-review": { spec: "campaign-list.spec.ts", test: "bulk edits the end date: the review and the result name the campaign that refuses it" },
  "campaign-action:approve": { spec: "issue8-defects.stateful.spec.ts", test: "a rejected campaign does not ask 'Ready to activate?' nor offer Activate; back to draft it does, and is approved" },
  "campaign-action:archive": { spec: "campaign-editor.spec.ts", test: "create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive" },
  "campaign-action:delete": { spec: "campaign-editor.spec.ts", test: "delete a draft after a confirmation: 'Campaign successfully deleted'" },
  "campaign-action:disable": { spec: "campaign-editor.spec.ts", test: "test mode, suspension after a confirmation, back to draft, and disabling after a confirmation" },
  "campaign-action:enable": { spec: "campaign-editor.spec.ts", test: "create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive" },
  "campaign-action:pause": { spec: "campaign-editor.spec.ts", test: "create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive" },
  "campaign-action:redraft": { spec: "campaign-editor.spec.ts", test: "test mode, suspension after a confirmation, back to draft, and disabling after a confirmation" },
  "campaign-action:reject": { spec: "issue8-defects.stateful.spec.ts", test: "a rejected campaign does not ask 'Ready to activate?' nor offer Activate; back to draft it does, and is approved" },
  "campaign-action:suspend": { spec: "campaign-editor.spec.ts", test: "test mode, suspension after a confirmation, back to draft, and disabling after a confirmation" },
  "campaign-action:test": { spec: "campaign-editor.spec.ts", test: "test mode, suspension after a confirmation, back to draft, and disabling after a confirmation" },
  "change-member-role": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "change-password": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "change-status": { spec: "teams.spec.ts", test: "edits a team and suspends it after a confirmation" },
  "change-statuses": { spec: "teams.spec.ts", test: "suspends two selected teams after reviewing the change" },
  "create-account": { spec: "users.spec.ts", test: "invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in" },
  "create-campaign": { spec: "campaign-editor.spec.ts", test: "create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive" },
  "create-team": { spec: "teams.spec.ts", test: "creates a team with a logo; a second one with the same name is refused" },
  "create-wallet": { spec: "wallets.spec.ts", test: "create a wallet, credit 100.00, debit 30.00, see the runway, reverse the debit, archive it and a credit is refused" },
  "delete-report": { spec: "reports.spec.ts", test: "offers every advertiser and the wallet tags filter, and deletes a report" },
  "delete-view": { spec: "campaign-list.spec.ts", test: "saves a custom view and reopens it from its link" },
  "duplicate-campaign": { spec: "campaign-list.spec.ts", test: "duplicates a campaign from the list and opens the copy" },
  "end-log-as": { spec: "operators.spec.ts", test: "an operator logs as a supplier from the user's page: the supplier's console with a banner naming both, then one button back" },
  "import-products": { spec: "campaign-product-picker.spec.ts", test: "find products by search and add one, only of the team's brands; import a CSV with a bad line and an unknown SKU" },
  "import-keywords": { spec: "campaign-keywords.spec.ts", test: "add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one" },
  "invite": { spec: "users.spec.ts", test: "invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in" },
  "log-as": { spec: "operators.spec.ts", test: "an operator logs as a supplier from the user's page: the supplier's console with a banner naming both, then one button back" },
  "mark-all-notifications-read": { spec: "notifications.spec.ts", test: "the centre: the welcome is marked read, then all are; the top bar's count follows" },
  "mark-notification-read": { spec: "notifications.spec.ts", test: "the centre: the welcome is marked read, then all are; the top bar's count follows" },
  "move-product": { spec: "campaign-products.spec.ts", test: "move a product by keyboard: the list reorders and the focus stays on the moved product; a typed position reorders it too" },
  "post-entry": { spec: "wallets.spec.ts", test: "create a wallet, credit 100.00, debit 30.00, see the runway, reverse the debit, archive it and a credit is refused" },
  "remove-targets": { spec: "campaign-keywords.spec.ts", test: "add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one" },
  "save-access-settings": { spec: "operators.spec.ts", test: "an operator sets the retailer staff e-mail domain and keeps the second factor required" },
  "save-sso-settings": { spec: "sso.stateful.spec.ts", test: "an operator sets up the identity provider; a retailer signs in with single sign-on and lands where they were going" },
  "save-negative-keywords": { spec: "campaign-keywords.spec.ts", test: "add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one" },
  "session-role": { spec: "operators.spec.ts", test: "an operator steps down to read only for the session: the menu and rights follow, and back" },
  // No test yet: removing a stored banner whose size the retailer no longer offers.
  "remove-banner": null,
  "remove-member": { spec: "users.spec.ts", test: "invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in" },
  "remove-photo": { spec: "profile-photo.stateful.spec.ts", test: "a photo is uploaded on the profile, shown in the top bar, and removed" },
  "remove-product": { spec: "campaign-products.spec.ts", test: "add products by pasting ids, see the unknown one reported and a 3P one refused, switch one off, remove one, remove two after a confirmation" },
  "remove-team-role": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "rename-view": { spec: "campaign-list.spec.ts", test: "saves a custom view and reopens it from its link" },
  "resend-invitation": { spec: "users.spec.ts", test: "a pending invitation is resent (the old link dies) and revoked after a confirmation" },
  "reset-retailer-settings": { spec: "retailer-settings.stateful.spec.ts", test: "an operator changes a bid limit, sees it saved, and resets to the defaults" },
  "restore-team": { spec: "teams.spec.ts", test: "archives a team, finds it through the status filter and restores it" },
  "reverse-entry": { spec: "wallets.spec.ts", test: "create a wallet, credit 100.00, debit 30.00, see the runway, reverse the debit, archive it and a credit is refused" },
  "review-statuses": { spec: "teams.spec.ts", test: "suspends two selected teams after reviewing the change" },
  "revoke-invitation": { spec: "users.spec.ts", test: "a pending invitation is resent (the old link dies) and revoked after a confirmation" },
  "run-report-now": { spec: "reports.spec.ts", test: "create a report with checked recipients, run it now, download its file from the history without an account" },
  "save-floor-prices": { spec: "retailer-settings.stateful.spec.ts", test: "an operator sets floor prices for a keyword and a category and a product image host, sees them kept, and removes them" },
  "save-image-hosts": { spec: "retailer-settings.stateful.spec.ts", test: "an operator sets floor prices for a keyword and a category and a product image host, sees them kept, and removes them" },
  "save-platform": { spec: "maintenance.stateful.spec.ts", test: "the operator turns maintenance on and off; a retailer is kept out meanwhile" },
  "save-positions": { spec: "campaign-products.spec.ts", test: "move a product by keyboard: the list reorders and the focus stays on the moved product; a typed position reorders it too" },
  "save-report": { spec: "reports.spec.ts", test: "create a report with checked recipients, run it now, download its file from the history without an account" },
  "save-retailer-settings": { spec: "retailer-settings.stateful.spec.ts", test: "an operator changes a bid limit, sees it saved, and resets to the defaults" },
  "save-view": { spec: "campaign-list.spec.ts", test: "saves a custom view and reopens it from its link" },
  "set-direction": { spec: "preferences.spec.ts", test: "choosing Right to left lays the console out from the right, also after a reload" },
  "set-disabled": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "set-locale": { spec: "preferences.spec.ts", test: "a visitor switches the sign-in page to French" },
  "set-team-role": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "set-theme": { spec: "preferences.spec.ts", test: "choosing Dark in the user menu darkens the console, also after a reload" },
  "sign-out": { spec: "users.spec.ts", test: "invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in" },
  "toggle-menu": { spec: "preferences.spec.ts", test: "the menu expands and collapses, and is remembered after a reload" },
  "toggle-product": { spec: "campaign-products.spec.ts", test: "add products by pasting ids, see the unknown one reported and a 3P one refused, switch one off, remove one, remove two after a confirmation" },
  "update-banners": { spec: "campaign-targeting.spec.ts", test: "uploads a banner with its link, which then counts" },
  "update-bidding": { spec: "campaign-fixes.spec.ts", test: "'Apply min bid' after a typed bid was refused raises the typed bids and keeps the rest" },
  "update-budget": { spec: "campaign-editor.spec.ts", test: "a stale version from another browser is refused and the input kept" },
  "update-claims": { spec: "user-detail.spec.ts", test: "changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password" },
  "update-creative": { spec: "campaign-targeting.spec.ts", test: "refuses a video longer than 20 s with 'Video is longer than 20s', keeping the typed texts" },
  "update-general": { spec: "campaign-editor.spec.ts", test: "create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive" },
  "update-photo": { spec: "profile-photo.stateful.spec.ts", test: "a photo is uploaded on the profile, shown in the top bar, and removed" },
  "update-profile": { spec: "profile.stateful.spec.ts", test: "saving the profile shows 'Changes Saved' and keeps the change" },
  "update-target": { spec: "campaign-keywords.spec.ts", test: "add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one" },
  "update-targeting": { spec: "campaign-targeting.spec.ts", test: "clears the grid, ticks hours with the keyboard, saves, and finds them kept" },
  "update-team": { spec: "teams.spec.ts", test: "edits a team and suspends it after a confirmation" },
  "update-wallet": { spec: "wallets.spec.ts", test: "create a wallet, credit 100.00, debit 30.00, see the runway, reverse the debit, archive it and a credit is refused" },
  // The quick builder's steps are GET forms (no intent); its one POST creates the draft.
  "create-quick-campaign": { spec: "campaign-quick.spec.ts", test: "builds a draft in five steps from the deep link: suggested products, typed keywords, suggested categories, then opens the editor" },
  "import-catalog": { spec: "catalog.spec.ts", test: "imports a CSV with bad rows in the background: its page follows it to the report, the good ones are in the catalog; a feed without its columns fails" },
  "POST /auth-management": { spec: "password-reset.stateful.spec.ts", test: "a forgotten password is reset through the e-mailed link, once" },
  "POST /forgot-password": { spec: "password-reset.stateful.spec.ts", test: "a forgotten password is reset through the e-mailed link, once" },
  "POST /login": { spec: "auth.spec.ts", test: "a signed-out visit to /campaigns returns there after signing in" },
  "POST /logout": { spec: "security.spec.ts", test: "a session cookie kept from before signing out opens nothing" },
};

/** The forms this table says a test submits. */
export function formsSubmittedBy(spec: string, title: string): string[] {
  return Object.entries(NOJS_FORMS)
    .filter(([, by]) => by?.spec === spec && by.test === title)
    .map(([key]) => key);
}
