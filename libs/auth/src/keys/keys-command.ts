import type { KeysChangedEvent } from '@app/messaging';
import type { KeysCommand } from './cli-args';
import type { KeyAdmin } from './key-admin';

export interface KeysCommandDeps {
  readonly admin: KeyAdmin;
  /** Tells every running process to drop cached key decisions. */
  readonly announce: (event: KeysChangedEvent) => Promise<void>;
  readonly now: () => Date;
}

/** Carries out one parsed command and returns the JSON object to print. */
export async function executeKeysCommand(command: KeysCommand, deps: KeysCommandDeps): Promise<object> {
  const { admin } = deps;
  const announce = (event: Omit<KeysChangedEvent, 'at'>) =>
    deps.announce({ ...event, at: deps.now().toISOString() });

  switch (command.name) {
    case 'account:create':
      return { account: await admin.createAccount(command.accountName, command.sports) };
    case 'account:sports': {
      const sports = await admin.setAccountSports(command.account, command.sports);
      await announce({ change: 'account', accountId: command.account });
      return { account: command.account, sports };
    }
    case 'key:issue': {
      const issued = await admin.issueKey(
        command.account,
        command.scopes,
        command.expiresAt,
        command.grants,
        command.rate,
      );
      // A lookup of the new key may have been cached as unknown moments ago.
      await announce({ change: 'key', keyId: issued.id, accountId: command.account });
      return issued;
    }
    case 'key:update': {
      const view = await admin.updateKey(command.id, command);
      await announce({ change: 'key', keyId: view.id, accountId: view.account });
      return view;
    }
    case 'key:disable':
    case 'key:enable': {
      const view = await admin.setKeyActive(command.id, command.name === 'key:enable');
      await announce({ change: 'key', keyId: view.id, accountId: view.account });
      return view;
    }
    case 'key:list':
      return { keys: await admin.listKeys(command.account) };
  }
}
