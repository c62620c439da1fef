/** The error frame text for one match subscription more than a socket may hold. */
export const SUBSCRIPTION_LIMIT_REACHED = 'subscription limit reached';

/** The handshake answer's text for one socket more than a key may hold. */
export const CONNECTION_LIMIT_REACHED = 'connection limit reached';

/**
 * Whether a socket holding `held` match subscriptions may follow one more
 * match. Subscribing again to a match it already follows is not one more.
 */
export function mayFollowAnother(held: number, alreadyFollowed: boolean, max: number): boolean {
  return alreadyFollowed || held < max;
}
