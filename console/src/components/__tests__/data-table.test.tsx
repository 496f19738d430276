import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable } from '../data-table';

const rows = Array.from({ length: 25 }, (_, index) => ({ id: `contact-${index + 1}`, visits: (index * 7) % 25 }));

function renderTable() {
  render(
    <DataTable
      caption="Releases"
      rows={rows}
      rowKey={(row) => row.id}
      empty="No release yet."
      pageSize={10}
      columns={[
        { key: 'id', header: 'Release', cell: (row) => row.id, sortValue: (row) => row.id },
        { key: 'visits', header: 'Visits', cell: (row) => String(row.visits), sortValue: (row) => row.visits },
      ]}
    />,
  );
}

const firstCells = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('a table of the console', () => {
  it('pages its rows', async () => {
    const user = userEvent.setup();
    renderTable();
    expect(firstCells()).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(firstCells()).toEqual(['contact-21', 'contact-22', 'contact-23', 'contact-24', 'contact-25']);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('sorts by a column, numbers as numbers, and again the other way', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.click(screen.getByRole('button', { name: 'Release' }));
    expect(firstCells().slice(0, 3)).toEqual(['contact-1', 'contact-2', 'contact-3']);
    expect(screen.getByRole('columnheader', { name: 'Release' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Release' }));
    expect(firstCells().slice(0, 3)).toEqual(['contact-25', 'contact-24', 'contact-23']);
  });

  it('says what to do next when it is empty', () => {
    render(<DataTable caption="Releases" rows={[]} rowKey={() => ''} empty="No release yet." columns={[]} />);
    expect(screen.getByText('No release yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
