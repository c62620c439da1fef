import { entityTag } from './entity-tag';

/**
 * A JSON answer serialised once and sent many times (a cached page): its
 * UTF-8 bytes and its entity tag are computed when it is built, so sending it
 * again costs neither encoding nor hashing. A handler returns it as it would
 * the JSON text; `installConditionalGet` sends the bytes with the tag, which
 * is the tag of the same text sent as a string. The text itself is not kept:
 * caches hold thousands of answers (an odds book's, one per match), and the
 * bytes are all that is ever sent.
 */
export class PreparedJson {
  readonly bytes: Buffer;
  readonly tag: string;

  constructor(text: string) {
    this.bytes = Buffer.from(text, 'utf8');
    this.tag = entityTag(this.bytes);
  }
}
