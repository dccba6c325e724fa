-- uuid_ext 0.5.1 can no longer be installed: only the current version installs (docs/SECURITY.md,
-- row 14, and "Fixed in 0.5.1"). This file takes the place of 0.5.1's install script, which an
-- install over that release left here and which any role that may create the extension could
-- pick; databases at 0.5.1 update as before.
DO $$ BEGIN RAISE EXCEPTION 'uuid_ext 0.5.1 can no longer be installed' USING ERRCODE = 'feature_not_supported', HINT = 'CREATE EXTENSION uuid_ext; installs the current version.'; END $$;
