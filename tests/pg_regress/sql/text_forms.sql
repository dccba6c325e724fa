-- Short text forms: uuid_encode/uuid_decode (hex, base32hex, base64url, crockford), the 16
-- octets as bytea (uuid_to_bytea/uuid_from_bytea), and TypeID. Checked against independent
-- references and PostgreSQL's own functions, never against uuid_ext's own output.
\set ECHO none
\i tests/pg_regress/include/helpers.sql
\set ECHO all

-- 1. Python's base64 module (RFC 4648 base32hex and base64url, padding stripped) and an
--    integer-division Crockford encoder, for 64 fixed values (Nil, Max, RFC 9562 vectors,
--    "foobarfoobarfoob" whose forms begin with RFC 4648 §10's "CPNMUOJ1" and "Zm9vYmFy", and
--    58 seeded random values).
CREATE TEMP TABLE reference (id uuid, base32hex text, base64url text, crockford text);
-- BEGIN reference rows (scripts/text_forms_reference.py)
INSERT INTO reference VALUES
('00000000000000000000000000000000', '00000000000000000000000000', 'AAAAAAAAAAAAAAAAAAAAAA', '00000000000000000000000000'),
('ffffffffffffffffffffffffffffffff', 'VVVVVVVVVVVVVVVVVVVVVVVVVS', '_____________________w', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
('666f6f626172666f6f626172666f6f62', 'CPNMUOJ1E9J6URR2C5P6CRRFC8', 'Zm9vYmFyZm9vYmFyZm9vYg', '36DXQP4RBJCSQPYRK1E9K6YVV2'),
('017f22e279b07cc398c4dc0c0c07398f', '05VI5OJPM1UC7664RG60O1PPHS', 'AX8i4nmwfMOYxNwMDAc5jw', '01FWHE4YDGFK1SHH6W1G60EECF'),
('c232ab00941411ecb3c89f6bdeced846', 'O8PAM04K2G8UPCU8JTLTTJMO8O', 'wjKrAJQUEeyzyJ9r3s7YRg', '626ANG150M27PB7J4ZDFFCXP26'),
('919108f752d133205bacf847db4148a8', 'I68GHTQIQ4PI0MTCV13TMGA8L0', 'kZEI91LRMyBbrPhH20FIqA', '4HJ44FEMPH6CG5QB7R8ZDM2J58'),
('59dddc474c2713454ab8ffc2a7b5c471', 'B7ETOHQC4S9KAILOVV1AFDE4E4', 'Wd3cR0wnE0VKuP_Cp7XEcQ', '2SVQE4EK172D2MNE7ZRAKVBH3H'),
('f4b490e5d6b0ee4e47fc4b49908f629a', 'UIQ91PEMM3N4SHVS9D4P13R2J8', '9LSQ5daw7k5H_EtJkI9img', '7MPJ8EBNNGXS74FZ2B9688YRMT'),
('9a82a4574ca89c5ddef375c7ff20f76f', 'JA1A8LQCL2E5RNNJEN3VU87NDS', 'moKkV0yonF3e83XH_yD3bw', '4TGAJ5EK58KHEXXWVNRZZJ1XVF'),
('9d8fc70f2b34e77b0368682aaa6025cb', 'JM7SE3PB6JJNM0R8D0LAKO15PC', 'nY_HDys053sDaGgqqmAlyw', '4XHZ3GYASMWXXG6T385AN609EB'),
('dc0edf07f79e8268e3cd90b93f8f6d8c', 'RG7DU1VNJQ16HOUDI2SJV3RDHG', '3A7fB_eegmjjzZC5P49tjA', '6W1VFGFXWYG9ME7KCGQ4ZRYVCC'),
('22aa5874448c3ceac7e99602ada2eedc', '4AL5GT24HGUELHV9IO1AR8NERG', 'IqpYdESMPOrH6ZYCraLu3A', '12N9C78H4C7KNCFTCP0APT5VPW'),
('edc84ebefe6ddbeffc6b9eff3dd8c270', 'TN44TFNUDNDUVV3BJRVJRM62E0', '7chOvv5t2-_8a57_PdjCcA', '7DS17BXZKDVFQZRTWYZWYXHGKG'),
('bb209d3fd0869c00a1a49407b8e52440', 'NCG9QFUGGQE018D4IG3RHP9480', 'uyCdP9CGnAChpJQHuOUkQA', '5V42EKZM46KG0A394M0YWEA920'),
('1ee73166744c4b6af47c328c3000dbf6', '3RJJ2PJK9H5MLT3S6A63006RUO', 'HucxZnRMS2r0fDKMMADb9g', '0YWWRPCX2C9DNF8Z1JHGR01PZP'),
('cbff59fef32736a658db5b0c15d56fac', 'PFVLJVNJ4SRACM6RBC61BLBFLG', 'y_9Z_vMnNqZY21sMFdVvrA', '6BZXCZXWS76TK5HPTV1GAXAVXC'),
('bc3550651f95e3b11cac7c3e7ce70663', 'NGQL0P8VINHR275CFGV7PPO6CC', 'vDVQZR-V47EcrHw-fOcGYw', '5W6N86A7WNWERHSB3W7SYEE1K3'),
('ce8f4a160da23c83f17c6c6a6e0fe257', 'PQ7KK5GDK8U87SBSDHL6S3V2AS', 'zo9KFg2iPIPxfGxqbg_iVw', '6EHX51C3D27J1Z2Z3CD9Q0ZRJQ'),
('c45275ea6d49f785847e5378485cffde', 'OH97BQJD97ROB13UADS4GN7VRO', 'xFJ16m1J94WEflN4SFz_3g', '64A9TYMVA9YY2R8ZJKF145SZYY'),
('e0644acdd0369a10d896ba1cec367292', 'S1I4LJEG6QD11M4MN8EEODJII8', '4GRKzdA2mhDYlroc7DZykg', '70CH5CVM1PK88DH5NT3KP3CWMJ'),
('51e9ab954fe287141dc7bcc0177bebac', 'A7KQN5AFSA3H87E7NJ01EUVBLG', 'UemrlU_ihxQdx7zAF3vrrA', '2HX6NSAKZ2GWA1VHXWR0BQQTXC'),
('d33240368e80d61631051b6fa03452a9', 'QCP40DKEG3B1CC853DNQ0D2IL4', '0zJANo6A1hYxBRtvoDRSqQ', '6K6903D3M0TRB3218VDYG38MN9'),
('d1f5f0f52ba2f2e0c7bf5df3b48ca5eb', 'Q7QV1T9BKBPE1HTVBNPR9355TC', '0fXw9Sui8uDHv13ztIyl6w', '6HYQRFAAX2YBGCFFTXYET8S9FB'),
('7addc681442ded4be1420072b9a2a2af', 'FBESD0A45NMKNOA201PBJ8L2LS', 'et3GgUQt7UvhQgByuaKirw', '3TVQ382H1DXN5Y2GG0EAWT58NF'),
('22c9e59bc6c16d2f5c31cbb5d9cdbedb', '4B4UB6U6O5MIUN1HPEQTJJDURC', 'Isnlm8bBbS9cMcu12c2-2w', '12S7JSQHP1DMQNRCEBPQCWVFPV'),
('1ca629671ae6f5b2068ee7665fa3e8fe', '3IJ2IPOQSRQR41KESTJ5V8V8VO', 'HKYpZxrm9bIGjudmX6Po_g', '0WMRMPE6Q6YPS0D3Q7CSFT7T7Y'),
('f32fe2d05077f65078e49e53f4a9cd05', 'UCNU5K2GEVR50U74JP9V9AED0K', '8y_i0FB39lB45J5T9KnNBQ', '7K5ZHD0M3QYS87HS4YAFTAKK85'),
('08c5829dba872e37307c87b9cb68c99c', '132O57DQGSN3EC3SGUSSMQ69JG', 'CMWCnbqHLjcwfIe5y2jJnA', '08RP19VEM75RVK0Z47Q75PHJCW'),
('017e5820d99f43c0bafe92676d9dee3e', '05V5G86PJT1S1ENUI9JMR7FE7O', 'AX5YINmfQ8C6_pJnbZ3uPg', '01FSC21PCZ8F0BNZMJCXPSVVHY'),
('fb4460dd7bac34bdcfa58841062291f9', 'VD261NBRLGQBRJT5H10GC8KHV4', '-0Rg3XusNL3PpYhBBiKR-Q', '7V8HGDTYXC6JYWZ9C8843254FS'),
('bb42b88b932a3c6f600d9f9496364458', 'ND1BH2SJ58U6UO0DJUA9CDI4B0', 'u0K4i5MqPG9gDZ-UljZEWA', '5V8AW8Q4SA7HQP03CZJJB3CH2R'),
('31bb7ad02cb0565d5bdb8daa99e7139f', '66TNLK1CM1B5QMURHML9JPOJJS', 'Mbt60CywVl1b242qmecTnw', '1HQDXD0B5GASENQPWDNACYE4WZ'),
('d4b7f8e220d663a8cd74e5eab69720ee', 'QIRVHOH0QPHQHJBKSNLBD5P0TO', '1Lf44iDWY6jNdOXqtpcg7g', '6MPZWE486PCEMCTX75XAV9E87E'),
('b5c0b2771af07ed7302a6ef3a20c9a0b', 'MN0B4TOQU1VDEC1ADRPQ434Q1C', 'tcCydxrwftcwKm7zogyaCw', '5NR2S7E6QGFVBK0AKEYEH0S6GB'),
('a4eaed53620b9bea4ca3df8b770aa3ed', 'KJLEQKR21EDUKJ53RU5NE2L3TK', 'pOrtU2ILm-pMo9-Ldwqj7Q', '54XBPN6RGBKFN4S8YZHDVGN8ZD'),
('f91541b35b1dddab35133ce37b3a279c', 'V4AK3CQR3NEQMD8J7JHNMEH7JG', '-RVBs1sd3as1EzzjezonnA', '7S2N0V6PRXVPNKA4SWWDXKM9WW'),
('38a085ff58c53d2ae58185eeff91c2df', '72G8BVQOOKUILPC1GNNFV4E2RS', 'OKCF_1jFPSrlgYXu_5HC3w', '1RM22ZYP657MNEB0C5XVZS3GPZ'),
('7afadf5a0927121774b53a35366e1ccb', 'FBTDUMG94S91ET5L78QJCRGSPC', 'evrfWgknEhd0tTo1Nm4cyw', '3TZBFNM29728BQ9D9T6MV6W76B'),
('c2ffa45fb3c6543c0f3c4e55d03d78db', 'OBVQ8NTJOPA3O3PS9PAT0FBORC', 'wv-kX7PGVDwPPE5V0D142w', '62ZYJ5ZCY6AGY0YF2EAQ83TY6V'),
('978da051eb648624b722b03cd4f1975d', 'IU6Q0KFBCI329DP2M0UD9SCNBK', 'l42gUetkhiS3IrA81PGXXQ', '4QHPG53TV4GRJBE8NG7KAF35TX'),
('b78c94b2fce0b448f7d4808807f0d2de', 'MU699CNSS2Q4HTUKG240FS6IRO', 't4yUsvzgtEj31ICIB_DS3g', '5QHJAB5Z70PH4FFN40H03Z1MPY'),
('9c312f80c3e7bcdd1ab23dab43e43a5a', 'JGOIV063SUUDQ6LI7MLK7P1QB8', 'nDEvgMPnvN0asj2rQ-Q6Wg', '4W64QR1GZ7QKEHNCHXND1Y8EJT'),
('dd7f9bd0ae461427180c9c4672891ff8', 'RLVPNK5E8OA2E60CJH37528VV0', '3X-b0K5GFCcYDJxGcokf-A', '6XFYDX1BJ62GKHG34W8SS8J7ZR'),
('9c877ae822c91bf997a22af96ff111f2', 'JI3NLQ12P4DVJ5T25BSMVS8HU8', 'nId66CLJG_mXoir5b_ER8g', '4WGXXEG8P93FWSF8HAZ5QZ24FJ'),
('5cec20e9fbd8e639d9f53570d6aaffba', 'BJM21QFRR3J3JMFL6LODDANVN8', 'XOwg6fvY5jnZ9TVw1qr_ug', '2WXGGEKYYRWRWXKX9NE3BANZXT'),
('d8ca55951346ab2286009131ef1007c4', 'R355B58J8QLI51G0I4OUU407OG', '2MpVlRNGqyKGAJEx7xAHxA', '6RS9ASA4T6NCH8C04H67QH01Y4'),
('e9ada51c23155d2c54a3d9868bd359e1', 'T6MQA7132LEIOL53R638NKQPS4', '6a2lHCMVXSxUo9mGi9NZ4Q', '79NPJHR8RNBMP598YSGT5X6PF1'),
('a17b0fff4b853deaf0b5820f9a6be97b', 'K5TGVVQBGKUULS5LG87PKQV9FC', 'oXsP_0uFPerwtYIPmmvpew', '51FC7ZYJW57QNF1DC21YD6QTBV'),
('82534b6104dd0b5bcc2b02fa44a61579', 'G99KMO84RK5LNJ1B0BT499GLF4', 'glNLYQTdC1vMKwL6RKYVeQ', '42AD5P216X1DDWRAR2Z92AC5BS'),
('4c539ab4ecfc38f0d1ef3a424c1c7e0c', '9H9PLD7CVGSF1KFF7914O73U1G', 'TFOatOz8OPDR7zpCTBx-DA', '2CAEDB9V7W73RD3VST8961RZGC'),
('f2b86010eaf5f42f3d086b6443eeea59', 'UAS6047AUNQ2UF88DDI47RNAB4', '8rhgEOr19C89CGtkQ-7qWQ', '7JQ1G11TQNYGQKT23BCH1YXTJS'),
('c86cbdfaa9b3bc191d82be4aaf268643', 'P1MBRUL9MEU1I7C2NP5AU9K68C', 'yGy9-qmzvBkdgr5KryaGQw', '68DJYZNADKQGCHV0NY9AQJD1J3'),
('622f388cbe55d73d03b9e0299c806648', 'C8NJH35UANBJQ0TPS0KPP03690', 'Yi84jL5V1z0DueApnIBmSA', '325WW8SFJNTWYG7EF056E80SJ8'),
('4c81b12ae6d957bfd9f48d621c4d8b34', '9I0R2AN6R5BRVMFKHLH1OJCB6G', 'TIGxKubZV7_Z9I1iHE2LNA', '2CG6RJNSPSAYZXKX4DC8E4V2SM'),
('9cca9e54af98d3855664ed95f747eb91', 'JJ59SL5FJ39OALJ4TMAVEHVBI4', 'nMqeVK-Y04VWZO2V90frkQ', '4WSAF59BWRTE2NCS7DJQVMFTWH'),
('05b2ef6ea7c7c48e5a918ee6c5acc4cc', '0MPEURL7OV28SMKHHRJCBB64PG', 'BbLvbqfHxI5akY7mxazEzA', '05PBQPX9Y7RJ75N4CEWV2TSH6C'),
('54bc804ecdf879bdb746c23cd0dc7566', 'AIU80JMDV1SRRDQ6O8UD1N3LCO', 'VLyATs34eb23RsI80Nx1Zg', '2MQJ04XKFRF6YVEHP27K8DRXB6'),
('fdcc6945698e26b4807785c19c3155be', 'VN66IHB9HOJB903NGN0POCALNO', '_cxpRWmOJrSAd4XBnDFVvg', '7XSHMMATCE4TT80XW5R6E32NDY'),
('644dfe039bebb88fc8ef01b341b5698c', 'CH6VS0SRTES8VI7F06PK3DB9HG', 'ZE3-A5vruI_I7wGzQbVpjA', '349QZ076ZBQ27WHVR1PD0VATCC'),
('adcef3342f13ba744f700ee21a945990', 'LN7F6D1F2ET78JRG1RH1L52PI0', 'rc7zNC8TunRPcA7iGpRZkA', '5DSVSK8BRKQ9T4YW0EW8D98PCG'),
('77ffc1ba161e83086f10d53d31edc026', 'EVVS3EGM3Q1GGROGQKUJ3RE04O', 'd__BuhYegwhvENU9Me3AJg', '3QZZ0VM5GYGC46Y46N7MRYVG16'),
('62f06dada4a0ee0b6e2bf1435f38d81b', 'CBO6RBD4K3N0MRHBU51LUE6O3C', 'YvBtraSg7gtuK_FDXzjYGw', '32Y1PTV950XR5PWAZH8DFKHP0V'),
('98edcad643f360c0dc765849d4c11928', 'J3MSLLI3UDGC1N3MB14T9G8P50', 'mO3K1kPzYMDcdlhJ1MEZKA', '4RXQ5DCGZKC30DRXJR97AC2698'),
('ccb0c038cc93cfea10f8f064c6f678d5', 'PIOC0E6CIF7UK47OU1ICDTJOQK', 'zLDAOMyTz-oQ-PBkxvZ41Q', '6CP303HK4KSZN11Y7GCK3FCY6N');
-- END reference rows
SELECT count(*) AS reference_rows,
       count(*) FILTER (WHERE uuid_encode(id, 'hex') = replace(id::text, '-', '')) AS hex_ok,
       count(*) FILTER (WHERE uuid_encode(id, 'base32hex') = base32hex AND uuid_decode(base32hex, 'base32hex') = id) AS base32hex_ok,
       count(*) FILTER (WHERE uuid_encode(id, 'base64url') = base64url AND uuid_decode(base64url, 'base64url') = id) AS base64url_ok,
       count(*) FILTER (WHERE uuid_encode(id, 'crockford') = crockford AND uuid_decode(crockford, 'crockford') = id) AS crockford_ok
FROM reference;
SELECT base32hex LIKE 'CPNMUOJ1%' AND base64url LIKE 'Zm9vYmFy%' AS carries_rfc_4648_vectors
FROM reference WHERE id = '666f6f62-6172-666f-6f62-6172666f6f62';
-- PostgreSQL 19's decode() accepts base32hex padded or not, in any case, with whitespace.
SELECT count(*) FILTER (WHERE uuid_decode(base32hex || '======', 'base32hex') = id
                          AND uuid_decode(lower(base32hex), 'base32hex') = id
                          AND uuid_decode(E' ' || left(base32hex, 13) || E'\n' || right(base32hex, 13) || E'\t', 'base32hex') = id
                          AND uuid_decode(base64url || '==', 'base64url') = id
                          AND uuid_decode(lower(crockford), 'crockford') = id
                          AND uuid_decode(upper(uuid_encode(id, 'hex')), 'hex') = id) AS lenient_where_documented
FROM reference;

-- 2. The ULID specification's example, and the reference implementation's second one.
SELECT uuid_encode('01563e3a-b5d3-d676-4c61-efb99302bd5b', 'crockford') = '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS ulid_spec_example,
       uuid_decode('01BX5ZZKBKACTAV9WEVGEMMVRZ', 'crockford') = '015f4bff-cd73-5334-ada7-8edc1d4a6f1f' AS ulid_second_example;

-- 3. Round trips of 10,000 values of every version, and sort order: base32hex and crockford
--    text under COLLATE "C" sorts exactly as the UUIDs do (hex too); base64url does not.
CREATE TEMP TABLE sample AS
SELECT CASE i % 5 WHEN 0 THEN uuid_generate_v7() WHEN 1 THEN gen_random_uuid() WHEN 2 THEN uuid_generate_v1()
                  WHEN 3 THEN uuid_generate_v6() ELSE uuid_generate_v8(decode(md5(i::text), 'hex')) END AS id
FROM generate_series(1, 10000) i
UNION ALL VALUES (uuid_nil()), (uuid_max());
SELECT f AS format, count(*) AS values,
       count(*) FILTER (WHERE uuid_decode(uuid_encode(id, f), f) = id) AS round_trips,
       min(length(uuid_encode(id, f))) AS min_len, max(length(uuid_encode(id, f))) AS max_len
FROM sample, unnest(ARRAY['hex', 'base32hex', 'base64url', 'crockford']) f
GROUP BY f ORDER BY f;
SELECT f AS format,
       count(*) FILTER (WHERE by_uuid <> by_text) = 0 AS sorts_like_the_uuid
FROM (SELECT f, row_number() OVER (PARTITION BY f ORDER BY id) AS by_uuid,
             row_number() OVER (PARTITION BY f ORDER BY uuid_encode(id, f) COLLATE "C") AS by_text
      FROM sample, unnest(ARRAY['hex', 'base32hex', 'base64url', 'crockford']) f) s
GROUP BY f ORDER BY f;

-- 3b. The 16 octets as bytea: uuid_to_bytea() is uuid_send() (the binary wire form, network
--     order), uuid_from_bytea() its inverse, on every value above; the bytes are the hex form's.
SELECT count(*) AS values,
       count(*) FILTER (WHERE uuid_to_bytea(id) = uuid_send(id)
                          AND uuid_to_bytea(id) = decode(uuid_encode(id, 'hex'), 'hex')
                          AND uuid_from_bytea(uuid_to_bytea(id)) = id) AS as_uuid_send_and_back,
       count(*) FILTER (WHERE length(uuid_to_bytea(id)) = 16) AS sixteen_bytes
FROM (SELECT id FROM sample UNION ALL SELECT id FROM reference) s;
-- On PostgreSQL 19: its built-in casts uuid::bytea and bytea::uuid, encode(…, 'base32hex') and
-- encode(…, 'base64url') unpadded, and decode() of those forms (padded or not, base32hex in any
-- case, with whitespace) give uuid_ext's answers on every value above. On 14-18 there is nothing
-- built in to compare with (compared 0).
CREATE FUNCTION pg_temp.against_19() RETURNS TABLE (compared bigint, differing bigint) LANGUAGE plpgsql AS $f$
BEGIN
    IF current_setting('server_version_num')::int < 190000 THEN
        RETURN QUERY SELECT 0::bigint, 0::bigint;
        RETURN;
    END IF;
    RETURN QUERY EXECUTE $q$
        SELECT count(*), count(*) FILTER (WHERE
                   uuid_to_bytea(id) IS DISTINCT FROM id::bytea
                OR uuid_from_bytea(id::bytea) IS DISTINCT FROM id::bytea::uuid
                OR uuid_encode(id, 'base32hex') IS DISTINCT FROM rtrim(encode(id::bytea, 'base32hex'), '=')
                OR uuid_decode(b32, 'base32hex') IS DISTINCT FROM decode(b32, 'base32hex')::uuid
                OR uuid_decode(b32 || '======', 'base32hex') IS DISTINCT FROM decode(b32 || '======', 'base32hex')::uuid
                OR uuid_decode(lower(b32), 'base32hex') IS DISTINCT FROM decode(lower(b32), 'base32hex')::uuid
                OR uuid_decode(E' ' || left(b32, 13) || E'\n' || right(b32, 13) || E'\t', 'base32hex')
                   IS DISTINCT FROM decode(E' ' || left(b32, 13) || E'\n' || right(b32, 13) || E'\t', 'base32hex')::uuid
                OR uuid_encode(id, 'base64url') IS DISTINCT FROM rtrim(encode(id::bytea, 'base64url'), '=')
                OR uuid_decode(b64, 'base64url') IS DISTINCT FROM decode(b64, 'base64url')::uuid
                OR uuid_decode(b64 || '==', 'base64url') IS DISTINCT FROM decode(b64 || '==', 'base64url')::uuid)
        FROM (SELECT id, uuid_encode(id, 'base32hex') AS b32, uuid_encode(id, 'base64url') AS b64
              FROM (SELECT id FROM sample UNION ALL SELECT id FROM reference) v) s $q$;
END $f$;
SELECT differing,
       compared = CASE WHEN current_setting('server_version_num')::int >= 190000
                       THEN (SELECT count(*) FROM sample) + (SELECT count(*) FROM reference) ELSE 0 END
         AS compared_all
FROM pg_temp.against_19();
-- Another length is 22P03 with 19's message, on every major; on 19 the built-in cast's own error
-- is the same (its outcome is shown as uuid_ext's on 14-18, where it has no such cast).
SELECT b, pg_temp.err(format('SELECT uuid_from_bytea(%L::bytea)', b)) AS uuid_ext,
       pg_temp.err(format('SELECT uuid_from_bytea(%L::bytea)', b))
         = pg_temp.err(format(CASE WHEN current_setting('server_version_num')::int >= 190000
                                   THEN 'SELECT %L::bytea::uuid' ELSE 'SELECT uuid_from_bytea(%L::bytea)' END, b))
         AS as_19
FROM (VALUES (''), ('\x00112233445566778899aabbccddee'), ('\x00112233445566778899aabbccddeeff00')) t(b);
SELECT uuid_to_bytea(NULL) IS NULL AS to_null, uuid_from_bytea(NULL) IS NULL AS from_null;
-- LEAKPROOF as 19's: uuid::bytea is, bytea::uuid (which fails on other lengths) is not. On 19
-- compared with the casts' functions; on 14-18, which have none, with itself.
SELECT f.ours, o.proleakproof AS leakproof, coalesce(c.proleakproof, o.proleakproof) = o.proleakproof AS as_19
FROM (VALUES ('uuid_to_bytea(uuid)', 'pg_catalog.bytea(uuid)'), ('uuid_from_bytea(bytea)', 'pg_catalog.uuid(bytea)')) f(ours, cast_fn)
JOIN pg_proc o ON o.oid = to_regprocedure(f.ours)
LEFT JOIN pg_proc c ON c.oid = to_regprocedure(f.cast_fn) AND current_setting('server_version_num')::int >= 190000
ORDER BY 1;

-- 4. Labels: usable in generated columns and expression indexes; NULL in, NULL out.
CREATE TEMP TABLE tickets (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
                           code text GENERATED ALWAYS AS (uuid_encode(id, 'crockford')) STORED);
CREATE INDEX ON tickets (uuid_encode(id, 'base32hex'));
INSERT INTO tickets DEFAULT VALUES;
SELECT uuid_decode(code, 'crockford') = id AS generated_column_decodes FROM tickets;
SELECT uuid_encode(NULL, 'hex') IS NULL AS a, uuid_encode(uuid_nil(), NULL) IS NULL AS b,
       uuid_decode(NULL, 'hex') IS NULL AS c, uuid_to_typeid(NULL, uuid_nil()) IS NULL AS d,
       uuid_from_typeid(NULL) IS NULL AS e, uuid_typeid_prefix(NULL) IS NULL AS f;

-- 5. Bad input: 22P02 with PostgreSQL's wording and a DETAIL naming the format, never XX000.
\set VERBOSITY default
SELECT uuid_decode('05VI5OJPM1UC7664RG60O1PPH', 'base32hex');      -- 25 symbols
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('05VI5OJPM1UC7664RG60O1PPHSS', 'base32hex');    -- 27 symbols
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('05VI5OJPM1UC7664RG60O1PPHW', 'base32hex');     -- W is not base32hex
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('05VI5OJPM1UC7664RG60O1PPHT', 'base32hex');     -- non-zero trailing bits
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('05VI5OJPM1UC7664RG60O1PPHS===', 'base32hex');  -- partial padding
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('AX8i4nmwfMOYxNwMDAc5jx', 'base64url');         -- non-zero trailing bits
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('AX8i4nmwfMOYxNwMDAc5j/', 'base64url');         -- / is base64, not base64url
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('8ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'crockford');     -- more than 128 bits
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'crockford');     -- U is not Crockford
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('01ARZ3NDEK-TSV4RRFFQ69G5FA', 'crockford');     -- no hyphens
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'hex'); -- dashes: that is uuid input
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('', 'hex');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('017f22e279b07cc398c4dc0c0c0739é', 'hex');
\echo :LAST_ERROR_SQLSTATE
-- An unknown format is 22023 like encode()'s; the name's case does not matter.
SELECT uuid_encode(uuid_nil(), 'base64');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('AAAAAAAAAAAAAAAAAAAAAA', 'ulid');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_encode(uuid_max(), 'Base32Hex') = uuid_encode(uuid_max(), 'base32hex') AS format_name_any_case;

-- 6. TypeID, specification v0.3.0: every example of spec/valid.yml decodes to its prefix and
--    UUID and encodes back; every example of spec/invalid.yml is rejected with 22P02.
CREATE TEMP TABLE typeid_valid (typeid text, prefix text, id uuid);
INSERT INTO typeid_valid VALUES
('00000000000000000000000000', '', '00000000-0000-0000-0000-000000000000'),
('00000000000000000000000001', '', '00000000-0000-0000-0000-000000000001'),
('0000000000000000000000000a', '', '00000000-0000-0000-0000-00000000000a'),
('0000000000000000000000000g', '', '00000000-0000-0000-0000-000000000010'),
('00000000000000000000000010', '', '00000000-0000-0000-0000-000000000020'),
('7zzzzzzzzzzzzzzzzzzzzzzzzz', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
('prefix_0123456789abcdefghjkmnpqrs', 'prefix', '0110c853-1d09-52d8-d73e-1194e95b5f19'),
('prefix_01h455vb4pex5vsknk084sn02q', 'prefix', '01890a5d-ac96-774b-bcce-b302099a8057'),
('pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000');
SELECT count(*) AS valid_examples,
       count(*) FILTER (WHERE uuid_from_typeid(typeid) = id AND uuid_typeid_prefix(typeid) = prefix
                          AND uuid_from_typeid(typeid, prefix) = id AND uuid_to_typeid(prefix, id) = typeid) AS ok
FROM typeid_valid;
CREATE TEMP TABLE typeid_invalid (name text, typeid text);
INSERT INTO typeid_invalid VALUES
('prefix-uppercase', 'PREFIX_00000000000000000000000000'),
('prefix-numeric', '12345_00000000000000000000000000'),
('prefix-period', 'pre.fix_00000000000000000000000000'),
('prefix-non-ascii', 'préfix_00000000000000000000000000'),
('prefix-spaces', '  prefix_00000000000000000000000000'),
('prefix-64-chars', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000'),
('separator-empty-prefix', '_00000000000000000000000000'),
('separator-empty', '_'),
('suffix-short', 'prefix_1234567890123456789012345'),
('suffix-long', 'prefix_123456789012345678901234567'),
('suffix-spaces', 'prefix_1234567890123456789012345 '),
('suffix-uppercase', 'prefix_0123456789ABCDEFGHJKMNPQRS'),
('suffix-hyphens', 'prefix_123456789-123456789-123456'),
('suffix-wrong-alphabet', 'prefix_ooooooiiiiiiuuuuuuulllllll'),
('suffix-ambiguous-crockford', 'prefix_i23456789ol23456789oi23456'),
('suffix-hyphens-crockford', 'prefix_123456789-0123456789-0123456'),
('suffix-overflow', 'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'),
('prefix-underscore-start', '_prefix_00000000000000000000000000'),
('prefix-underscore-end', 'prefix__00000000000000000000000000');
CREATE FUNCTION pg_temp.sqlstate_of(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM uuid_from_typeid(t);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
SELECT name, pg_temp.sqlstate_of(typeid) AS sqlstate FROM typeid_invalid ORDER BY name;
SELECT uuid_from_typeid('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz');
SELECT uuid_from_typeid('prefix_01h455vb4pex5vsknk084sn02q', 'user');   -- another type
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_to_typeid('User', uuid_generate_v7());                      -- a bad prefix is 22023
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_to_typeid('user_', uuid_generate_v7());
\echo :LAST_ERROR_SQLSTATE
SELECT length(uuid_to_typeid(repeat('a', 63), uuid_nil())) AS longest_prefix_len;
SELECT uuid_to_typeid(repeat('a', 64), uuid_nil());
\echo :LAST_ERROR_SQLSTATE
-- A generated v7 key as a TypeID: lower case, first symbol 0-7, decodes back.
SELECT uuid_to_typeid('user', id) ~ '^user_[0-7][0-9a-hjkmnp-tv-z]{25}$' AS shape,
       uuid_from_typeid(uuid_to_typeid('user', id), 'user') = id AS decodes
FROM (SELECT uuid_generate_v7() AS id) s;
