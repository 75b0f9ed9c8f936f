where = "${env}/${region}/${zone}"
