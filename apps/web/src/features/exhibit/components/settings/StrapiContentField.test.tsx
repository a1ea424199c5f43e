import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STRAPI_MESSAGES, type StrapiContentList } from '@plinth/shared';
import { queryKeys } from '../../../../lib/query-keys';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, newQueryClient, ORG, renderWith, serve, setting, type Call } from '../../test/fixtures';
import { ExhibitSettingsTab } from '../ExhibitSettingsTab';
import { SettingField } from './SettingField';

const CONTENT_PATH = '/org-management/organization/setting/strapi/content';

const hero = (value: string | null = null) =>
  setting({ manifestId: 'hero', display: 'Hero article', type: 'StrapiContent', value, contentType: 'article', displayFieldName: 'title' });

/** 23 entries, 10 a page, as the server answers them. */
function page(n: number): StrapiContentList {
  const ids = Array.from({ length: 23 }, (_, i) => i + 1).slice((n - 1) * 10, n * 10);
  return { entries: ids.map((id) => ({ id, display: id === 2 ? '' : `Article ${id}` })), page: n, pageCount: 3, total: 23 };
}

function contentAnswer(call: Call): Response | undefined {
  if (call.path !== CONTENT_PATH) return undefined;
  const query = new URLSearchParams(call.query);
  expect(query.get('exhibitId')).toBe(EXHIBIT);
  expect(query.get('settingId')).toBe('hero');
  return json(page(Number(query.get('page'))));
}

function renderField(value: string | null, onChange = vi.fn(), disabled = false) {
  renderWith(
    <SettingField
      exhibitId={EXHIBIT}
      setting={hero(value)}
      value={value}
      isModified={false}
      isApplied
      disabled={disabled}
      onChange={onChange}
      organizationId={ORG}
      contentServiceUrl="https://cms.example.org"
    />,
  );
  return onChange;
}

const strapiError = (reason: 'noUrl' | 'noJwt' | 'options', message: string, status: number) =>
  json({ response: message, code: status === 400 ? 'ValidationError' : 'ExternalServiceError', message, details: { reason, organizationId: ORG } }, status);

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('StrapiContentField', () => {
  it('offers the entries page by page, by their display field, and passes the chosen id on', async () => {
    const calls = serve(contentAnswer);
    const user = userEvent.setup();
    const onChange = renderField(null);
    expect(await screen.findByText('10 of 23 loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('20 of 23 loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('23 of 23 loaded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === CONTENT_PATH).map((c) => new URLSearchParams(c.query).get('page'))).toEqual(['1', '2', '3']);

    await user.click(screen.getByRole('textbox', { name: 'Hero article' }));
    expect(await screen.findByRole('option', { name: 'Article 23' })).toBeInTheDocument();
    // An entry without the display field shows by its id.
    expect(screen.getByRole('option', { name: 'ID 2' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Hero article' }), 'Article 12');
    await user.click(await screen.findByRole('option', { name: 'Article 12' }));
    expect(onChange).toHaveBeenLastCalledWith('12');
  });

  it('shows the chosen entry by its display, or by its id until its page is loaded', async () => {
    serve(contentAnswer);
    renderField('3');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Hero article' })).toHaveValue('Article 3'));
  });

  it('keeps a chosen entry beyond the loaded pages visible by its id', async () => {
    serve(contentAnswer);
    renderField('21');
    expect(await screen.findByText('10 of 23 loaded')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Hero article' })).toHaveValue('ID 21');
  });

  it('says when the content manager has no content of the type', async () => {
    serve((call) => (call.path === CONTENT_PATH ? json({ entries: [], page: 1, pageCount: 0, total: 0 }) : undefined));
    renderField(null);
    expect(await screen.findByText('The content manager has no article content yet.')).toBeInTheDocument();
  });

  it('asks for a Strapi URL with a link to the organization settings', async () => {
    serve((call) => (call.path === CONTENT_PATH ? strapiError('noUrl', STRAPI_MESSAGES.noUrl, 400) : undefined));
    renderField(null);
    expect(await screen.findByText(/You need to set a Strapi URL to select content/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Organization settings' })).toHaveAttribute('href', `/organization/${ORG}/settings`);
  });

  it('shows the spec messages for no JWT and for options that could not load, and tries again', async () => {
    let answer: Response = strapiError('noJwt', STRAPI_MESSAGES.noJwt, 502);
    const calls = serve((call) => (call.path === CONTENT_PATH ? answer.clone() : undefined));
    const user = userEvent.setup();
    renderField(null);
    expect(await screen.findByRole('alert')).toHaveTextContent(STRAPI_MESSAGES.noJwt);
    expect(screen.queryByRole('link', { name: 'Organization settings' })).not.toBeInTheDocument();

    answer = strapiError('options', STRAPI_MESSAGES.options('article'), 502);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Error loading options for "StrapiContent" setting with type article'));

    answer = errorBody('InternalServer', 'Something went wrong on our side. Please try again.', 500);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong on our side.'));

    answer = json(page(1));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('10 of 23 loaded')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === CONTENT_PATH)).toHaveLength(4);
  });

  it('saves the choice with the strapi-content call from the settings tab', async () => {
    const saved: unknown[] = [];
    serve((call) => {
      if (call.method === 'PUT' && call.path === `/exhibit-management/exhibit/${EXHIBIT}/strapi-content/hero`) {
        saved.push(call.body);
        return json({ ok: true });
      }
      if (call.path === `/exhibit-management/exhibit/${EXHIBIT}/manifest`) return json(manifestBody({ strapiContent: [hero('5')] }));
      return contentAnswer(call);
    });
    const queryClient = newQueryClient();
    queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), manifestBody({ strapiContent: [hero(null)] }));
    queryClient.setQueryData(queryKeys.organization(ORG), { id: ORG, name: 'Acme Museum', organizationsettings: [] });
    const user = userEvent.setup();
    renderWith(<ExhibitSettingsTab exhibit={exhibitBody()} onDirtyChange={vi.fn()} />, queryClient);

    const field = screen.getByTestId('setting-hero');
    await within(field).findByText('10 of 23 loaded');
    await user.click(within(field).getByRole('textbox', { name: 'Hero article' }));
    await user.click(await screen.findByRole('option', { name: 'Article 5' }));
    expect(within(field).getByText('Modified')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ contentId: '5' }]));
  });
});
