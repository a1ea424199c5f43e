import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { settingSaveError } from './setting-save-error';

const refused = (response: string) => new ApiError(400, { response, code: 'BadRequest', message: response }, response);

describe('settingSaveError', () => {
  it('keeps a message about the whole value as the server wrote it', () => {
    expect(settingSaveError(refused('The site report URL must start with https://reports.example/'))).toEqual({
      field: null,
      text: 'The site report URL must start with https://reports.example/',
    });
  });

  it('names the part of a structured value the message is about', () => {
    expect(settingSaveError(refused('value.url: the content manager URL must be an http or https URL'))).toEqual({
      field: 'url',
      text: 'The content manager URL must be an http or https URL',
    });
  });

  it('drops the bare value prefix', () => {
    expect(settingSaveError(refused('value: "Mars/Olympus" is not a time zone name'))).toEqual({ field: null, text: '"Mars/Olympus" is not a time zone name' });
  });

  it('falls back to a plain sentence when the failure has no words', () => {
    expect(settingSaveError(undefined)).toEqual({ field: null, text: 'This setting could not be saved.' });
  });
});
