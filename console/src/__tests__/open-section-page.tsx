import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConsoleApp } from '../app/console-app';
import { fakeControlApi, signedInBefore, type Routes } from './fake-control-api';

export interface OpenSectionPageOptions {
  /** The section's id, in the page's address. */
  section: string;
  /** Its name, the page's heading once it has loaded. */
  heading: string;
  /** A release id whose cell says the releases table has loaded too. */
  ready?: string;
}

/** The whole console, signed in before, opened on a section's page against the fake API `routes`: what a person sees after a reload there. */
export async function openSectionPage(routes: Routes, { section, heading, ready }: OpenSectionPageOptions) {
  const api = fakeControlApi(routes);
  window.location.hash = `#/sections/${section}`;
  signedInBefore();
  render(<ConsoleApp />);
  expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
  if (ready !== undefined) await screen.findByRole('cell', { name: ready });
  return { api, user: userEvent.setup() };
}
