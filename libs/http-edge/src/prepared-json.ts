import { entityTag } from './entity-tag';

/**
 * A JSON answer serialised once and sent many times (a cached page): its
 * UTF-8 bytes and its entity tag are computed when it is built, so sending it
 * again costs neither encoding nor hashing. A handler returns it as it would
 * the JSON text; `installConditionalGet` sends the bytes with the tag, which
 * is the tag of the same text sent as a string.
 */
export class PreparedJson {
  readonly bytes: Buffer;
  readonly tag: string;

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text, 'utf8');
    this.tag = entityTag(this.bytes);
  }
}
