import { useEffect } from 'react';
import { can, type Exhibit } from '@plinth/shared';
import { TokenPanel, type TokenPanelTexts } from '../../../components/TokenPanel';
import { useCreateToken } from '../../../lib/api/create-token';
import { useDeleteToken } from '../../../lib/api/delete-token';
import { useTokens, type TokenOwner } from '../../../lib/api/list-tokens';

export const EXHIBIT_TOKEN_WARNING = 'Please save this exhibit token somewhere safe. This value will disappear when you leave this page.';

const TEXTS: TokenPanelTexts = {
  idTitle: 'Exhibit ID',
  newTokenTitle: (name) => `Token ${name}`,
  newTokenLabel: 'New exhibit token',
  warning: EXHIBIT_TOKEN_WARNING,
  tableLabel: 'Exhibit tokens',
  createFailed: 'The token could not be created.',
  deleteMessage: (name) => `Delete the token ${name}? Exhibits using it are disconnected and can no longer authenticate with it.`,
  deleteConfirmLabel: 'Delete',
  deleteCancelLabel: 'Cancel',
  ownerKind: 'exhibit',
};

/**
 * The auth tab (spec 2.12): the exhibit id to copy, its tokens (managers may delete them) and
 * Create new token. An exhibit without tokens gets one at once, named after the exhibit; a new
 * token's value is shown this once, with a warning to save it.
 */
export function ExhibitAuthTab({ exhibit }: { exhibit: Exhibit }) {
  const owner: TokenOwner = { kind: 'exhibit', id: exhibit.id };
  const canCreate = can(exhibit.role, 'createToken');
  const tokens = useTokens(owner, canCreate);
  const create = useCreateToken(owner);
  const remove = useDeleteToken(owner);

  // A failed token fetch is logged only (spec section 8).
  useEffect(() => {
    if (tokens.isError) console.error('Could not get the tokens of this exhibit', tokens.error);
  }, [tokens.isError, tokens.error]);

  return (
    <TokenPanel
      ownerId={exhibit.id}
      ownerName={exhibit.name}
      tokens={tokens.data?.tokens}
      isLoading={tokens.isPending && canCreate}
      isError={tokens.isError}
      canCreate={canCreate}
      canDelete={can(exhibit.role, 'deleteToken')}
      create={create}
      remove={remove}
      texts={TEXTS}
    />
  );
}
