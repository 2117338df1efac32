from string import Template
Template('Hello $name').substitute({})
