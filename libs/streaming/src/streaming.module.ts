import { Module } from '@nestjs/common';
import { StreamServer } from './stream-server';

/** One StreamServer per application, shared by all of its stream endpoints. */
@Module({ providers: [StreamServer], exports: [StreamServer] })
export class StreamingModule {}
