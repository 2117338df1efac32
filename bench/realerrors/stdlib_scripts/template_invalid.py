from string import Template
Template('cost: $').substitute(x=1)
