this is the file 'deploy.sh'
this is the file 'deploy.sh'
