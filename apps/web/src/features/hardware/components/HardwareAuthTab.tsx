import { TokenPanel, type TokenPanelTexts } from '../../../components/TokenPanel';
import { useCreateToken } from '../../../lib/api/create-token';
import { useDeleteToken } from '../../../lib/api/delete-token';
import { useTokens, type TokenOwner } from '../../../lib/api/list-tokens';
import type { HardwareFrame } from '../api/get-hardware';

export const TOKEN_WARNING = 'Please save this hardware token somewhere safe. This value will disappear when you leave this page.';

const TEXTS: TokenPanelTexts = {
  idTitle: 'Hardware ID',
  newTokenTitle: () => 'New hardware token',
  newTokenLabel: 'New hardware token',
  warning: TOKEN_WARNING,
  copyNames: { id: 'hardware ID', token: 'hardware token' },
  tableLabel: 'Hardware tokens',
  empty: 'No tokens yet.',
  loadFailed: 'Could not load the tokens of this hardware.',
  createFailed: 'Could not create a hardware token.',
  deleteMessage: (name) => `Delete the token ${name}? A board using it is disconnected and refused at its next connect.`,
  ownerKind: 'hardware',
};

/**
 * The hardware's auth tab (spec 2.13): its ID with Copy, its tokens (name, created date, delete
 * for managers) and Create new token. With no token at all, one named after the hardware is
 * created on arrival. A new token's value is shown once, on this page only. The tab itself is
 * shown only to users who may edit the hardware, so they may always create tokens.
 */
export function HardwareAuthTab({ hardware, canDeleteTokens }: { hardware: HardwareFrame; canDeleteTokens: boolean }) {
  const owner: TokenOwner = { kind: 'hardware', id: hardware.id };
  const tokens = useTokens(owner);
  const create = useCreateToken(owner);
  const remove = useDeleteToken(owner);
  return (
    <TokenPanel
      ownerId={hardware.id}
      ownerName={hardware.name}
      tokens={tokens.data?.tokens}
      isLoading={tokens.isPending}
      isError={tokens.isError}
      canCreate
      canDelete={canDeleteTokens}
      create={create}
      remove={remove}
      texts={TEXTS}
    />
  );
}
