#!/bin/sh
export AWS_ACCESS_KEY_ID=AKIAQ3EGV6WZ5KR2TNBL
export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A   # scan:ignore
rsync -a build/ deploy@web01:/srv/app/
