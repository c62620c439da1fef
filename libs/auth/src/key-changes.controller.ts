import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type KeysChangedEvent, Subjects } from '@app/messaging';
import { KeyRegistry } from './key-registry';

/** Key changes announced on NATS reach every replica's key registry. */
@Controller()
export class KeyChangesController {
  constructor(private readonly registry: KeyRegistry) {}

  @EventPattern(Subjects.authKeysChanged)
  onKeysChanged(@Payload() event: KeysChangedEvent | undefined): void {
    this.registry.applyKeyChange(event);
  }
}
