import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { can, type Exhibit } from '@plinth/shared';
import { createExhibitToken, deleteExhibitToken, useExhibitTokens } from '../../../api/exhibit-runtime';
import { queryKeys } from '../../../api/query-keys';
import { TokenPanel, type TokenPanelTexts } from '../../../components/TokenPanel';

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
  const queryClient = useQueryClient();
  const canCreate = can(exhibit.role, 'createToken');
  const tokens = useExhibitTokens(exhibit.id, canCreate);

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
      createToken={(name) => createExhibitToken(exhibit.id, name)}
      deleteToken={deleteExhibitToken}
      onChanged={() => queryClient.invalidateQueries({ queryKey: queryKeys.exhibitTokens(exhibit.id) })}
      texts={TEXTS}
    />
  );
}
