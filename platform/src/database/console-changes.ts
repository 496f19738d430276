/**
 * The channel on which the database says that something the operator
 * console shows changed (docs/console.md, "Live updates"): a JSON payload
 * `{ kind, section? }`. Triggers on the tables say it, so a change made
 * by any server, command or job is heard; each package's migrations add
 * the triggers of its own tables.
 */
export const CONSOLE_CHANNEL = 'portico_console';

/**
 * The trigger function each package's migration (re)creates before its
 * triggers: `console_notify('<kind>')` for a statement-level trigger, and
 * `console_notify('<kind>', 'section')` for a row-level one whose rows
 * have a `section` column. Every migration states the same text, so the
 * last to run changes nothing.
 */
export const CONSOLE_NOTIFY_FUNCTION = `
  CREATE OR REPLACE FUNCTION console_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    changed_section text;
  BEGIN
    IF TG_LEVEL = 'ROW' AND TG_NARGS > 1 THEN
      IF TG_OP = 'DELETE' THEN changed_section := OLD.section; ELSE changed_section := NEW.section; END IF;
    END IF;
    PERFORM pg_notify('${CONSOLE_CHANNEL}', json_strip_nulls(json_build_object('kind', TG_ARGV[0], 'section', changed_section))::text);
    RETURN NULL;
  END
  $fn$;
`;
