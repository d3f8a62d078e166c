import type { GoneLinkState } from "../../../shared/domain/document-requests.ts";

/**
 * A link that is expired or revoked: the route answers 410 with its state and the company's name
 * (and nothing else), whichever step found it gone.
 */
export class LinkGone extends Error {
  constructor(
    readonly state: GoneLinkState,
    readonly companyName: string,
  ) {
    super(`request link ${state}`);
  }
}
